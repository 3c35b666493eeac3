#include "collage/evolutionary_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "support/error.h"

namespace collage {
namespace {

using Clock = std::chrono::steady_clock;

struct Individual {
  Genome genome;
  double fitness = std::numeric_limits<double>::infinity();
};

void CheckInputs(const EvolutionaryProblem& problem, const EvolutionaryOptions& options) {
  Check(problem.genes > 0, "evolutionary search: the problem has no genes");
  Check(problem.gene_values >= 2 && problem.gene_values <= 256,
        "evolutionary search: a gene takes 2 to 256 values, not " + std::to_string(problem.gene_values));
  Check(problem.key && problem.fitness, "evolutionary search: the problem needs a key and a fitness function");
  Check(options.population > 0, "evolutionary search: the population must not be empty");
  Check(options.generations > 0, "evolutionary search: at least one generation is needed");
  Check(!options.stall_generations || *options.stall_generations > 0,
        "evolutionary search: stall_generations must be at least 1");
  Check(options.elites < options.population, "evolutionary search: elites must be fewer than the population");
  Check(options.tournament_size > 0, "evolutionary search: the tournament needs at least one draw");
  for (const Genome& seed : options.seeds) {
    Check(seed.size() == problem.genes, "evolutionary search: a seed genome has " + std::to_string(seed.size()) +
                                            " genes, expected " + std::to_string(problem.genes));
    Check(std::all_of(seed.begin(), seed.end(), [&](uint8_t gene) { return gene < problem.gene_values; }),
          "evolutionary search: a seed genome has a gene of " + std::to_string(problem.gene_values) + " or more");
  }
}

// Fitness by key with the cache, the statistics, the best so far and the time budget.
class Evaluator {
 public:
  Evaluator(const EvolutionaryProblem& problem, const EvolutionaryOptions& options, EvolutionaryResult& result)
      : problem_(problem), options_(options), result_(result), start_(Clock::now()), cache_(options.known_fitness) {
    result_.best_fitness = std::numeric_limits<double>::infinity();
  }

  // False (and nothing evaluated) when the time budget has run out; the first call always
  // evaluates.
  bool Evaluate(Individual& individual) {
    if (result_.stats.individuals > 0 && options_.time_budget_seconds && Seconds() >= *options_.time_budget_seconds) {
      result_.stats.stopped_by_time = true;
      return false;
    }
    ++result_.stats.individuals;
    const uint64_t key = problem_.key(individual.genome);
    auto found = cache_.find(key);
    if (found != cache_.end()) {
      ++result_.stats.cache_hits;
    } else {
      ++result_.stats.evaluations;
      const double fitness = problem_.fitness(individual.genome, key);
      found = cache_.emplace(key, std::isnan(fitness) ? std::numeric_limits<double>::infinity() : fitness).first;
    }
    individual.fitness = found->second;
    if (result_.best.empty() || individual.fitness < result_.best_fitness) {
      result_.best = individual.genome;
      result_.best_key = key;
      result_.best_fitness = individual.fitness;
    }
    return true;
  }

  double Seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  std::vector<std::pair<uint64_t, double>> Ranked() const {
    std::vector<std::pair<uint64_t, double>> ranked(cache_.begin(), cache_.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& lhs, const auto& rhs) {
      return lhs.second < rhs.second || (lhs.second == rhs.second && lhs.first < rhs.first);
    });
    return ranked;
  }

 private:
  const EvolutionaryProblem& problem_;
  const EvolutionaryOptions& options_;
  EvolutionaryResult& result_;
  Clock::time_point start_;
  std::unordered_map<uint64_t, double> cache_;
};

// Draws for selection, crossover and mutation from one seeded stream.
class Breeder {
 public:
  Breeder(const EvolutionaryProblem& problem, const EvolutionaryOptions& options)
      : options_(options),
        random_(options.seed),
        mutation_(options.mutation_probability.value_or(1.0 / static_cast<double>(problem.genes))),
        genes_(problem.genes),
        nonzero_value_(1, static_cast<int>(problem.gene_values) - 1),
        gene_values_(static_cast<int>(problem.gene_values)) {}

  Genome Random() {
    std::bernoulli_distribution nonzero(options_.random_nonzero_probability);
    Genome genome(genes_);
    for (uint8_t& gene : genome) gene = nonzero(random_) ? static_cast<uint8_t>(nonzero_value_(random_)) : 0;
    return genome;
  }

  Genome Child(const std::vector<Individual>& parents) {
    const Individual& first = parents[Tournament(parents)];
    const Individual& second = parents[Tournament(parents)];
    Genome child = first.genome;
    if (std::bernoulli_distribution(options_.crossover_probability)(random_)) {
      std::bernoulli_distribution from_second(0.5);
      for (size_t gene = 0; gene < genes_; ++gene) {
        if (from_second(random_)) child[gene] = second.genome[gene];
      }
    }
    for (uint8_t& gene : child) {
      if (mutation_(random_)) gene = static_cast<uint8_t>((gene + nonzero_value_(random_)) % gene_values_);
    }
    return child;
  }

 private:
  size_t Tournament(const std::vector<Individual>& parents) {
    std::uniform_int_distribution<size_t> pick(0, parents.size() - 1);
    size_t winner = pick(random_);
    for (size_t draw = 1; draw < options_.tournament_size; ++draw) {
      const size_t rival = pick(random_);
      if (parents[rival].fitness < parents[winner].fitness ||
          (parents[rival].fitness == parents[winner].fitness && rival < winner)) {
        winner = rival;
      }
    }
    return winner;
  }

  const EvolutionaryOptions& options_;
  std::mt19937_64 random_;
  std::bernoulli_distribution mutation_;
  size_t genes_;
  // 1 .. gene_values - 1: a random non-zero value, or (added modulo gene_values) another value
  std::uniform_int_distribution<int> nonzero_value_;
  int gene_values_;
};

// The `count` best of `population`, best first (ties: earlier first).
std::vector<Individual> Elites(const std::vector<Individual>& population, size_t count) {
  std::vector<size_t> order(population.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t lhs, size_t rhs) { return population[lhs].fitness < population[rhs].fitness; });
  std::vector<Individual> elites;
  for (size_t i = 0; i < count; ++i) elites.push_back(population[order[i]]);
  return elites;
}

}  // namespace

std::string EvolutionaryStats::ToString() const {
  std::ostringstream text;
  text << "generations=" << generations << " individuals=" << individuals << " evaluations=" << evaluations
       << " cache_hits=" << cache_hits << " seconds=" << seconds << (stopped_by_time ? " stopped_by=time" : "")
       << (stopped_by_stall ? " stopped_by=stall" : "");
  return text.str();
}

EvolutionaryResult RunEvolutionarySearch(const EvolutionaryProblem& problem, const EvolutionaryOptions& options) {
  CheckInputs(problem, options);
  EvolutionaryResult result;
  Evaluator evaluator(problem, options, result);
  Breeder breeder(problem, options);

  std::vector<Individual> population;
  for (const Genome& seed : options.seeds) {
    if (population.size() < options.population) population.push_back(Individual{seed});
  }
  while (population.size() < options.population) population.push_back(Individual{breeder.Random()});

  size_t stalled = 0;  // generations in a row without a better best
  for (size_t generation = 0; generation < options.generations; ++generation) {
    size_t fresh = 0;
    if (generation > 0) {
      std::vector<Individual> next = Elites(population, options.elites);
      fresh = next.size();
      while (next.size() < options.population) next.push_back(Individual{breeder.Child(population)});
      population = std::move(next);
    }
    bool complete = true;
    for (size_t i = fresh; i < population.size() && complete; ++i) complete = evaluator.Evaluate(population[i]);
    if (!complete) break;
    ++result.stats.generations;
    std::vector<double>& best = result.stats.best_per_generation;
    stalled = !best.empty() && result.best_fitness >= best.back() ? stalled + 1 : 0;
    best.push_back(result.best_fitness);
    if (options.stall_generations && stalled >= *options.stall_generations) {
      result.stats.stopped_by_stall = true;
      break;
    }
  }
  result.stats.seconds = evaluator.Seconds();
  result.ranked = evaluator.Ranked();
  return result;
}

}  // namespace collage
