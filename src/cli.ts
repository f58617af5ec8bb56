import 'reflect-metadata';
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2));
