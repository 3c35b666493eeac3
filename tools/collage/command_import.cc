// `collage import MODEL [-o OUT]`: prints the loaded, type-checked module in the text format.
#include <iostream>

#include "collage/model.h"
#include "commands.h"
#include "pipeline/text_file.h"
#include "shape_option.h"

namespace collage::cli {

CommandSpec ImportCommandSpec() {
  return {"import",
          "MODEL",
          "print the imported, type-checked model in the text format",
          {{{"--output", "-o"}, "OUT", "write the text to OUT instead of standard output"}, ShapeOptionSpec()}};
}

int RunImportCommand(const ParsedArguments& arguments) {
  std::string text = api::Model::Load(arguments.positional, ReadShapeBindings(arguments, "import")).ToText();
  if (!text.empty() && text.back() != '\n') text += '\n';
  const std::optional<std::string> output = arguments.Value("--output");
  if (!output) {
    std::cout << text;
    return 0;
  }
  WriteTextFile(*output, text);
  return 0;
}

}  // namespace collage::cli
