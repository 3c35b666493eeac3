// A generic evolutionary (genetic) search over fixed-length genomes of small integers (each gene
// one of `gene_values` values, 0 .. gene_values - 1), minimizing a fitness. It knows nothing of
// placements: graph_search.h gives it
// genes per operator and the measured latency of the placement a genome stands for.
//
// Generation 0 is the seed genomes (in order, all-0 first by convention) then random ones
// (each gene non-zero with `random_nonzero_probability`, its non-zero value uniform). Each later
// generation keeps the `elites` best of the previous one unchanged and fills the rest with
// children: two parents by tournament
// (`tournament_size` draws, lowest fitness wins, ties to the earlier individual), uniform
// crossover with probability `crossover_probability` (else a copy of the first parent), then
// each gene, with probability `mutation_probability`, replaced by a uniformly drawn other value.
//
// Invariants:
// - genomes that the problem's key maps to the same value are evaluated once: the fitness
//   cache is keyed by that key (a hit is counted, the fitness is reused);
// - the random stream (std::mt19937_64 from `seed`) is consumed identically whatever the
//   fitness values' timing and cache hits, so with only the generation budget binding the
//   same seed gives the same result;
// - the time budget is checked before every fitness evaluation, so the search stops at most
//   one evaluation after the budget runs out; the first individual is always evaluated;
// - with `stall_generations`, the search also stops once that many generations after the
//   first have not lowered the best fitness;
// - a NaN fitness counts as +infinity (a failed plan); the best individual is the first found
//   with the lowest fitness.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace collage {

using Genome = std::vector<uint8_t>;  // one gene per position

struct EvolutionaryProblem {
  size_t genes = 0;
  size_t gene_values = 2;  // 2 .. 256
  // What the genome stands for (genomes with one key are one solution).
  std::function<uint64_t(const Genome&)> key;
  // Lower is better; +inf for a solution that fails. Called once per distinct key, with it.
  std::function<double(const Genome&, uint64_t key)> fitness;
};

struct EvolutionaryOptions {
  size_t population = 16;
  size_t generations = 10;            // generations evaluated, generation 0 included; at least 1
  std::optional<double> time_budget_seconds;  // unset: none
  // Stop after this many full generations in a row that did not improve the best; unset: never.
  std::optional<size_t> stall_generations;
  size_t elites = 2;
  size_t tournament_size = 3;
  double crossover_probability = 0.9;
  // Per gene; unset: 1 / genes.
  std::optional<double> mutation_probability;
  double random_nonzero_probability = 0.5;
  uint64_t seed = 0;
  std::vector<Genome> seeds;  // start of generation 0 (extra ones beyond the population are dropped)
  // Fitnesses already known by key (counted as cache entries, not evaluations).
  std::unordered_map<uint64_t, double> known_fitness;
};

struct EvolutionaryStats {
  size_t generations = 0;  // generations fully evaluated
  size_t individuals = 0;  // individuals whose fitness was asked
  size_t evaluations = 0;  // fitness callback calls
  size_t cache_hits = 0;
  double seconds = 0;
  bool stopped_by_time = false;
  bool stopped_by_stall = false;  // stall_generations ran out
  std::vector<double> best_per_generation;  // best fitness so far after each full generation
  std::string ToString() const;
};

struct EvolutionaryResult {
  Genome best;
  uint64_t best_key = 0;
  double best_fitness = 0;
  // Every distinct key with a known fitness (evaluated, or given in known_fitness) and that
  // fitness, best first (equal fitness: smaller key first).
  std::vector<std::pair<uint64_t, double>> ranked;
  EvolutionaryStats stats;
};

// Throws Error when the problem has no genes or a gene_values outside 2 .. 256, a callback is
// missing, a seed genome has the wrong length or a gene >= gene_values, or an option is out of
// range.
EvolutionaryResult RunEvolutionarySearch(const EvolutionaryProblem& problem, const EvolutionaryOptions& options);

}  // namespace collage
