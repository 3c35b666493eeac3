#!/usr/bin/env node
// ONNX Runtime's CPU latency of an ONNX model: the speed anchor of the benchmarks.
//
//   node bench/ort_bench.js MODEL.onnx [--threads 2] [--runs 20] [--warmup 2] [--seed 0] [--ort DIR]
//                           [--profile FILE]
//
// Loads the model with the CPU execution provider, `--threads` intra-op threads, one inter-op
// thread and every graph optimization, feeds seeded random inputs of the model's input types
// (floats uniform in [-1, 1], integers in [0, 10], as `collage bench` draws them; a dimension
// without a fixed size is 1), runs it --warmup times, then times --runs calls of `run` and prints
// one JSON line: {"model", "ort_version", "threads", "runs_ms" (every timed run, in order),
// "median_ms", "p10_ms", "p90_ms"}.
// With --profile FILE, ONNX Runtime's profiler records every run (warm-up runs included; the
// timings then include its overhead) and its JSON trace, with each node's kernel time, op type
// and shapes, is written to FILE; the printed line names it as "profile".
// onnxruntime-node is looked up in --ort DIR, $COLLAGE_ORT_DIR or third_party/ort (where
// scripts/setup.sh installs it). Exit status 3 when it is not installed there, 1 on any other
// error; either way one line on stderr.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const SOURCE_DIR = path.dirname(__dirname);
const EXIT_ORT_MISSING = 3;

function fail(message, status = 1) {
  process.stderr.write(`ort_bench: ${message}\n`);
  process.exit(status);
}

function parseArguments(argv) {
  const options = {threads: 2, runs: 20, warmup: 2, seed: 0, ort: process.env.COLLAGE_ORT_DIR ||
                   path.join(SOURCE_DIR, 'third_party', 'ort'), profile: null};
  const integerOptions = new Set(['threads', 'runs', 'warmup', 'seed']);
  let model;
  for (let i = 0; i < argv.length; ++i) {
    const argument = argv[i];
    if (!argument.startsWith('--')) {
      if (model !== undefined) fail(`unexpected argument '${argument}' (one model expected)`);
      model = argument;
      continue;
    }
    const name = argument.slice(2);
    if (!(name in options)) fail(`unknown option '${argument}'`);
    if (i + 1 >= argv.length) fail(`${argument} needs a value`);
    const value = argv[++i];
    if (integerOptions.has(name)) {
      if (!/^\d+$/.test(value)) fail(`${argument} expects a non-negative integer, got '${value}'`);
      options[name] = Number(value);
    } else {
      options[name] = value;
    }
  }
  if (model === undefined) {
    fail('usage: ort_bench.js MODEL.onnx [--threads N] [--runs N] [--warmup N] [--seed S] [--ort DIR] [--profile FILE]');
  }
  if (options.threads < 1 || options.runs < 1) fail('--threads and --runs must be at least 1');
  return {model, ...options};
}

function loadOnnxRuntime(directory) {
  const modulePath = path.join(path.resolve(directory), 'node_modules', 'onnxruntime-node');
  if (!fs.existsSync(path.join(modulePath, 'package.json'))) {
    fail(`onnxruntime-node is not installed in ${directory} (scripts/setup.sh installs it)`, EXIT_ORT_MISSING);
  }
  return require(modulePath);
}

// mulberry32: a small seeded generator of uniform doubles in [0, 1).
function uniformGenerator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FLOAT_ARRAYS = {float32: Float32Array, float64: Float64Array};
const INTEGER_ARRAYS = {int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
                        int32: Int32Array, uint32: Uint32Array};
const BIGINT_ARRAYS = {int64: BigInt64Array, uint64: BigUint64Array};

function randomTensor(ort, metadata, seed) {
  if (!metadata.isTensor) fail(`input '${metadata.name}' is not a tensor`);
  const shape = metadata.shape.map((dimension) => (typeof dimension === 'number' && dimension >= 0 ? dimension : 1));
  const count = shape.reduce((product, dimension) => product * dimension, 1);
  const next = uniformGenerator(seed);
  const type = metadata.type;
  let data;
  if (type in FLOAT_ARRAYS) {
    data = new FLOAT_ARRAYS[type](count);
    for (let i = 0; i < count; ++i) data[i] = next() * 2 - 1;
  } else if (type in INTEGER_ARRAYS) {
    data = new INTEGER_ARRAYS[type](count);
    for (let i = 0; i < count; ++i) data[i] = Math.round(next() * 10);
  } else if (type in BIGINT_ARRAYS) {
    data = new BIGINT_ARRAYS[type](count);
    for (let i = 0; i < count; ++i) data[i] = BigInt(Math.round(next() * 10));
  } else if (type === 'bool') {
    data = new Uint8Array(count);
    for (let i = 0; i < count; ++i) data[i] = next() < 0.5 ? 1 : 0;
  } else {
    fail(`input '${metadata.name}' has element type ${type}, which this benchmark cannot generate`);
  }
  return new ort.Tensor(type, data, shape);
}

// The q-th quantile of `samples`, linearly interpolated (as collage's benchmarks compute it).
function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

// Ends the session's profiling and moves the trace ONNX Runtime wrote into `folder` to `file`.
function saveProfile(session, folder, file) {
  session.endProfiling();
  const traces = fs.readdirSync(folder).filter((name) => name.endsWith('.json'));
  if (traces.length !== 1) fail(`ONNX Runtime wrote ${traces.length} profile traces, one expected`);
  try {
    fs.copyFileSync(path.join(folder, traces[0]), file);
  } catch (error) {
    fail(`cannot write the profile to ${file}: ${error.message}`);
  }
  fs.rmSync(folder, {recursive: true, force: true});
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  if (!fs.existsSync(options.model)) fail(`${options.model}: no such file`);
  const ort = loadOnnxRuntime(options.ort);
  const profileFolder = options.profile === null ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'ort_bench_'));
  let session;
  try {
    session = await ort.InferenceSession.create(options.model, {
      executionProviders: ['cpu'],
      intraOpNumThreads: options.threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      ...(profileFolder === null ? {} : {enableProfiling: true, profileFilePrefix: path.join(profileFolder, 'trace')}),
    });
  } catch (error) {
    fail(`${options.model}: ONNX Runtime cannot load it: ${String(error.message).split('\n')[0]}`);
  }
  const feeds = {};
  session.inputMetadata.forEach((metadata, index) => {
    feeds[metadata.name] = randomTensor(ort, metadata, options.seed + index);
  });
  try {
    for (let i = 0; i < options.warmup; ++i) await session.run(feeds);
    const runsMs = [];
    for (let i = 0; i < options.runs; ++i) {
      const start = process.hrtime.bigint();
      await session.run(feeds);
      runsMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    if (profileFolder !== null) saveProfile(session, profileFolder, options.profile);
    process.stdout.write(JSON.stringify({
      model: options.model,
      ort_version: ort.env.versions.node,
      threads: options.threads,
      runs_ms: runsMs,
      median_ms: quantile(runsMs, 0.5),
      p10_ms: quantile(runsMs, 0.1),
      p90_ms: quantile(runsMs, 0.9),
      ...(profileFolder === null ? {} : {profile: options.profile}),
    }) + '\n');
  } catch (error) {
    fail(`${options.model}: ONNX Runtime failed to run it: ${String(error.message).split('\n')[0]}`);
  }
  await session.release();
}

main().catch((error) => fail(String(error && error.message ? error.message : error).split('\n')[0]));
