#include "collage/evolutionary_search.h"

#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <set>
#include <thread>

#include "support/error.h"

namespace collage {
namespace {

uint64_t PackBits(const Genome& genome) {
  uint64_t bits = 0;
  for (size_t gene = 0; gene < genome.size(); ++gene) bits |= uint64_t{genome[gene]} << gene;
  return bits;
}

size_t Ones(const Genome& genome) { return std::accumulate(genome.begin(), genome.end(), size_t{0}); }

// Fitness = Hamming distance to `target`: the optimum is `target` itself, at 0.
EvolutionaryProblem HammingProblem(const Genome& target, size_t* calls = nullptr) {
  EvolutionaryProblem problem;
  problem.genes = target.size();
  problem.key = PackBits;
  problem.fitness = [target, calls](const Genome& genome, uint64_t) {
    if (calls) ++*calls;
    double distance = 0;
    for (size_t gene = 0; gene < target.size(); ++gene) distance += genome[gene] != target[gene] ? 1 : 0;
    return distance;
  };
  return problem;
}

const Genome kTarget = {1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0};

TEST(EvolutionarySearchTest, FindsTheKnownOptimumWithinTheGenerationBudget) {
  EvolutionaryOptions options;
  options.population = 24;
  options.generations = 60;
  options.seed = 7;
  options.seeds = {Genome(kTarget.size(), 0)};
  const EvolutionaryResult result = RunEvolutionarySearch(HammingProblem(kTarget), options);
  EXPECT_EQ(result.best, kTarget);
  EXPECT_EQ(result.best_fitness, 0);
  EXPECT_EQ(result.best_key, PackBits(kTarget));
  // Far fewer evaluations than the 2^24 genomes.
  EXPECT_LE(result.stats.evaluations, options.population * options.generations);
  // Elitism: the best so far never gets worse.
  for (size_t g = 1; g < result.stats.best_per_generation.size(); ++g) {
    EXPECT_LE(result.stats.best_per_generation[g], result.stats.best_per_generation[g - 1]);
  }
}

TEST(EvolutionarySearchTest, TheSameSeedGivesTheSameSearch) {
  EvolutionaryOptions options;
  options.population = 10;
  options.generations = 8;
  options.seed = 42;
  const EvolutionaryResult first = RunEvolutionarySearch(HammingProblem(kTarget), options);
  const EvolutionaryResult second = RunEvolutionarySearch(HammingProblem(kTarget), options);
  EXPECT_EQ(first.best, second.best);
  EXPECT_EQ(first.stats.best_per_generation, second.stats.best_per_generation);
  EXPECT_EQ(first.stats.evaluations, second.stats.evaluations);
  EXPECT_EQ(first.stats.cache_hits, second.stats.cache_hits);

  // The seed matters: another one starts from other random individuals.
  options.seed = 43;
  options.generations = 1;
  const EvolutionaryResult other = RunEvolutionarySearch(HammingProblem(kTarget), options);
  options.seed = 42;
  const EvolutionaryResult same_start = RunEvolutionarySearch(HammingProblem(kTarget), options);
  EXPECT_NE(other.best, same_start.best);
}

TEST(EvolutionarySearchTest, RespectsTheGenerationBudget) {
  size_t calls = 0;
  EvolutionaryOptions options;
  options.population = 12;
  options.generations = 5;
  options.elites = 2;
  const EvolutionaryResult result = RunEvolutionarySearch(HammingProblem(kTarget, &calls), options);
  EXPECT_EQ(result.stats.generations, 5u);
  EXPECT_EQ(result.stats.best_per_generation.size(), 5u);
  // Generation 0 asks every individual, later ones every non-elite.
  EXPECT_EQ(result.stats.individuals, 12u + 4u * 10u);
  EXPECT_EQ(result.stats.individuals, result.stats.evaluations + result.stats.cache_hits);
  EXPECT_EQ(calls, result.stats.evaluations);
  EXPECT_FALSE(result.stats.stopped_by_time);
}

TEST(EvolutionarySearchTest, StopsWhenTheBestStallsForTheGivenGenerations) {
  // The seed is the optimum: no later generation improves on it.
  EvolutionaryOptions options;
  options.population = 8;
  options.generations = 1000;
  options.stall_generations = 3;
  options.seeds = {kTarget};
  const EvolutionaryResult result = RunEvolutionarySearch(HammingProblem(kTarget), options);
  EXPECT_EQ(result.best, kTarget);
  EXPECT_EQ(result.stats.generations, 4u);  // generation 0, then 3 without improvement
  EXPECT_TRUE(result.stats.stopped_by_stall);
  EXPECT_FALSE(result.stats.stopped_by_time);

  // Without a stall limit the generation budget binds.
  options.stall_generations.reset();
  options.generations = 6;
  EXPECT_EQ(RunEvolutionarySearch(HammingProblem(kTarget), options).stats.generations, 6u);
  options.stall_generations = 0;
  EXPECT_THROW(RunEvolutionarySearch(HammingProblem(kTarget), options), Error);
}

TEST(EvolutionarySearchTest, RespectsTheTimeBudgetWithinOneEvaluation) {
  using Clock = std::chrono::steady_clock;
  constexpr double kBudget = 0.2;
  constexpr auto kEvaluation = std::chrono::milliseconds(30);
  std::vector<double> started_at;
  const Clock::time_point start = Clock::now();
  EvolutionaryProblem problem = HammingProblem(kTarget);
  problem.fitness = [&](const Genome& genome, uint64_t) {
    started_at.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    std::this_thread::sleep_for(kEvaluation);
    return static_cast<double>(Ones(genome));
  };
  EvolutionaryOptions options;
  options.population = 8;
  options.generations = 1000;
  options.time_budget_seconds = kBudget;
  const EvolutionaryResult result = RunEvolutionarySearch(problem, options);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(result.stats.stopped_by_time);
  ASSERT_GE(started_at.size(), 2u);
  for (double at : started_at) EXPECT_LT(at, kBudget + 0.005);
  // Budget plus the one evaluation started just before it ran out, plus scheduling slack.
  EXPECT_LT(elapsed, kBudget + std::chrono::duration<double>(kEvaluation).count() + 0.05);
  EXPECT_LT(result.stats.generations, 1000u);
  EXPECT_EQ(result.stats.best_per_generation.size(), result.stats.generations);
}

TEST(EvolutionarySearchTest, GenomesWithOneKeyAreEvaluatedOnce) {
  // The key is the number of ones: 25 possible solutions among 2^24 genomes.
  std::multiset<uint64_t> evaluated;
  EvolutionaryProblem problem;
  problem.genes = 24;
  problem.key = [](const Genome& genome) { return uint64_t{Ones(genome)}; };
  problem.fitness = [&](const Genome&, uint64_t key) {
    evaluated.insert(key);
    return std::abs(static_cast<double>(key) - 5);
  };
  EvolutionaryOptions options;
  options.population = 20;
  options.generations = 10;
  const EvolutionaryResult result = RunEvolutionarySearch(problem, options);
  EXPECT_LE(result.stats.evaluations, 25u);
  EXPECT_GT(result.stats.cache_hits, 0u);
  EXPECT_EQ(evaluated.size(), result.stats.evaluations);
  EXPECT_EQ(std::set<uint64_t>(evaluated.begin(), evaluated.end()).size(), evaluated.size());
  EXPECT_EQ(Ones(result.best), 5u);
}

TEST(EvolutionarySearchTest, KnownFitnessIsNotMeasuredAgainAndNanCountsAsFailure) {
  std::set<uint64_t> evaluated;
  EvolutionaryProblem problem;
  problem.genes = 4;
  problem.key = PackBits;
  problem.fitness = [&](const Genome& genome, uint64_t key) {
    evaluated.insert(key);
    return Ones(genome) == 4 ? std::numeric_limits<double>::quiet_NaN() : 10.0 - static_cast<double>(Ones(genome));
  };
  EvolutionaryOptions options;
  options.population = 4;
  options.generations = 1;
  options.seeds = {Genome(4, 0), Genome(4, 1)};
  options.known_fitness = {{0, 1.0}};
  const EvolutionaryResult result = RunEvolutionarySearch(problem, options);
  EXPECT_EQ(evaluated.count(0), 0u);
  EXPECT_EQ(result.best, Genome(4, 0));
  EXPECT_EQ(result.best_fitness, 1.0);
  EXPECT_GE(result.stats.cache_hits, 1u);
  // Ranked: every known key once, the given one included, best first.
  ASSERT_FALSE(result.ranked.empty());
  EXPECT_EQ(result.ranked.front(), (std::pair<uint64_t, double>{0, 1.0}));
  std::set<uint64_t> keys;
  for (size_t i = 0; i < result.ranked.size(); ++i) {
    keys.insert(result.ranked[i].first);
    if (i > 0) {
      EXPECT_LE(result.ranked[i - 1].second, result.ranked[i].second);
    }
  }
  EXPECT_EQ(keys.size(), result.ranked.size());
}

TEST(EvolutionarySearchTest, FindsAMultiValuedOptimumAndDrawsEveryValue) {
  // Genes of 3 values (0 keep, 1 and 2 two alternatives); the key packs 2 bits per gene.
  const Genome target = {2, 0, 1, 1, 2, 0, 0, 2, 1, 0, 2, 2, 1, 0, 1, 2};
  EvolutionaryProblem problem = HammingProblem(target);
  problem.gene_values = 3;
  std::set<uint8_t> values_seen;
  problem.key = [&](const Genome& genome) {
    uint64_t key = 0;
    for (size_t gene = 0; gene < genome.size(); ++gene) {
      values_seen.insert(genome[gene]);
      key |= uint64_t{genome[gene]} << (2 * gene);
    }
    return key;
  };
  EvolutionaryOptions options;
  options.population = 24;
  options.generations = 80;
  options.seed = 11;
  options.seeds = {Genome(target.size(), 0)};  // values 1 and 2 must come from random genomes and mutation
  const EvolutionaryResult result = RunEvolutionarySearch(problem, options);
  EXPECT_EQ(result.best, target);
  EXPECT_EQ(result.best_fitness, 0);
  EXPECT_EQ(values_seen, (std::set<uint8_t>{0, 1, 2}));
  EXPECT_LE(result.stats.evaluations, options.population * options.generations);
}

TEST(EvolutionarySearchTest, RejectsMalformedInputs) {
  EvolutionaryOptions options;
  options.seeds = {Genome(3, 0)};
  EXPECT_THROW(RunEvolutionarySearch(HammingProblem(kTarget), options), Error);
  options.seeds = {};
  options.elites = options.population;
  EXPECT_THROW(RunEvolutionarySearch(HammingProblem(kTarget), options), Error);
  EXPECT_THROW(RunEvolutionarySearch(EvolutionaryProblem{}, EvolutionaryOptions{}), Error);
  options = EvolutionaryOptions{};
  options.seeds = {Genome(kTarget.size(), 2)};  // a value a 0/1 problem does not have
  EXPECT_THROW(RunEvolutionarySearch(HammingProblem(kTarget), options), Error);
  EvolutionaryProblem one_valued = HammingProblem(kTarget);
  one_valued.gene_values = 1;
  EXPECT_THROW(RunEvolutionarySearch(one_valued, EvolutionaryOptions{}), Error);
}

}  // namespace
}  // namespace collage
