export { CliError, DEFAULT_OUT, USAGE, parseCliArgs, type CliOptions } from './cli-args.js';
export { STORE, sampleBusiness } from './dealership.js';
export { DEFAULT_OPTIONS, generateReviews, type GenerateOptions } from './generate.js';
export { writeSample, writeSampleParallel, type WriteResult } from './write-sample.js';
