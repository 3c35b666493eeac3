#include "pass/pass.h"

#include <gtest/gtest.h>

#include <sstream>

#include "pass/instruments.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

// A module pass that appends its name to `log` and adds nothing to the module.
Pass LoggingPass(const std::string& name, int opt_level, std::vector<std::string>* log) {
  return Pass::ModulePass({name, opt_level}, [name, log](const Module& module, const PassContext&) {
    log->push_back(name);
    return module;
  });
}

TEST(PassManagerTest, SequentialRunsInOrderSubjectToOptLevel) {
  std::vector<std::string> log;
  Pass pipeline = Pass::Sequential({LoggingPass("A", 0, &log), LoggingPass("B", 3, &log), LoggingPass("C", 1, &log)});
  PassContext context;
  context.opt_level = 2;
  pipeline(Module(testing::MakeChain(2)), context);
  EXPECT_EQ(log, (std::vector<std::string>{"A", "C"}));
}

TEST(PassManagerTest, RequiredAndDisabledOverrideOptLevel) {
  std::vector<std::string> log;
  Pass pipeline = Pass::Sequential({LoggingPass("A", 0, &log), LoggingPass("B", 3, &log)});
  PassContext context;
  context.opt_level = 0;
  context.required_passes = {"B"};
  context.disabled_passes = {"A"};
  pipeline(Module(testing::MakeChain(2)), context);
  EXPECT_EQ(log, (std::vector<std::string>{"B"}));
}

TEST(PassManagerTest, FunctionPassVisitsEveryFunction) {
  Module module(testing::MakeChain(2));
  module.Add("helper", testing::MakeChain(4));
  std::vector<size_t> params;
  Pass pass = Pass::FunctionPass({"CountParams", 0}, [&](const Function& function, const Module&, const PassContext&) {
    params.push_back(function->params.size());
    return MakeFunction(function->params, CallOp("nn.relu", {function->body}));
  });
  Module result = pass(module);
  EXPECT_EQ(params.size(), 2u);
  ASSERT_EQ(result.functions().size(), 2u);
  EXPECT_EQ(As<CallNode>(result.Get("helper")->body)->op()->name, "nn.relu");
  EXPECT_NE(result.main(), module.main());  // the input module is untouched
}

TEST(PassManagerTest, ConfigOptionsAreTypedAndRegistered) {
  PassConfigRegistry::Global().Register("Test.depth", int64_t{4}, "a test option");
  PassContext context;
  EXPECT_EQ(context.GetIntConfig("Test.depth"), 4);
  context.SetConfig("Test.depth", int64_t{7});
  EXPECT_EQ(context.GetIntConfig("Test.depth"), 7);
  EXPECT_THROW(context.SetConfig("Test.depth", std::string("deep")), Error);
  try {
    context.SetConfig("Test.dpeth", int64_t{1});
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown pass option 'Test.dpeth'"), std::string::npos);
  }
}

TEST(PassManagerTest, InstrumentsSeeEachPassThatRuns) {
  std::vector<std::string> log;
  auto timing = std::make_shared<PassTimingInstrument>();
  std::ostringstream printed;
  PassContext context;
  context.instruments = {timing, std::make_shared<PrintIRInstrument>(printed, std::set<std::string>{"A"},
                                                                    std::set<std::string>{})};
  context.disabled_passes = {"B"};
  Pass::Sequential({LoggingPass("A", 0, &log), LoggingPass("B", 0, &log)})(Module(testing::MakeChain(1)), context);
  ASSERT_EQ(timing->entries().size(), 1u);
  EXPECT_EQ(timing->entries()[0].pass_name, "A");
  EXPECT_GE(timing->entries()[0].seconds, 0.0);
  EXPECT_NE(timing->Report().find("A"), std::string::npos);
  EXPECT_NE(printed.str().find("// IR before A"), std::string::npos);
  EXPECT_NE(printed.str().find("nn.relu"), std::string::npos);
}

}  // namespace
}  // namespace collage
