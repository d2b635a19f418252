import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Command, CommanderError, Option } from 'commander';
import { pino } from 'pino';
import { runAgent } from '../tally-agent/agent-loop.js';
import { LocalQueue } from '../tally-agent/local-queue.js';
import { tallyClient } from '../../connectors/tally/client.js';
import { Settings } from '../../connectors/tally/settings.js';
import { buildInfo } from '../../src/build-info.js';
import { ConfigError } from '../../src/errors/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { intOption } from '../parse-args.js';
import { requiredOption } from '../required-option.js';
import { versionLine } from '../version.js';

export interface TallyAgentOptions {
  url: string;
  connection: string;
  credentialFile: string;
  tally: string;
  company: string;
  stateDir?: string;
  logFile?: string;
  pollSeconds: number;
  rangeSize: number;
  encoding: 'utf-16' | 'utf-8';
}

/** The credential from its file (one line, made by `erp-sync connect`); never logged. */
function readCredential(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--credential-file ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  const credential = text.trim();
  if (!credential) throw new ConfigError(`--credential-file ${file} is empty (erp-sync connect prints the credential)`);
  return credential;
}

/** Every line to the log file (appended, written at once so a kill loses none) and to stdout. */
function agentLogger(file: string) {
  const toFile = pino.destination({ dest: file, append: true, mkdir: true, sync: true });
  return createLogger({
    format: 'json',
    destination: {
      write: (line: string) => {
        toFile.write(line);
        process.stdout.write(line);
      },
    },
  });
}

/**
 * `erp-sync tally-agent`: runs on the PC beside TallyPrime, reads it there (the direct mode's reads) and
 * pushes batches to the worker at `--url` (its `http.publicUrl`) with the connection's agent credential.
 * Runs until SIGINT/SIGTERM (a service manager's stop); its place is kept in `--state-dir`.
 */
export async function runTallyAgent(o: TallyAgentOptions): Promise<void> {
  const stateDir = o.stateDir ?? join(homedir(), '.erp-sync', 'tally-agent', o.connection);
  mkdirSync(stateDir, { recursive: true });
  const logger = agentLogger(o.logFile ?? join(stateDir, 'tally-agent.log'));
  const settings = Settings.parse({ url: o.tally, company: o.company, rangeSize: o.rangeSize, encoding: o.encoding });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runAgent({
      connection: o.connection,
      target: { url: o.url, credential: readCredential(o.credentialFile), timeoutMs: 60_000 },
      tally: {
        connectionId: o.connection,
        http: tallyClient({ connectionId: o.connection, settings, logger }),
        logger,
        until: new Date(),
        settings,
      },
      queue: new LocalQueue(stateDir),
      pollMs: o.pollSeconds * 1000,
      agentVersion: buildInfo().version,
      logger,
      signal: stop.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `erp-sync tally-agent --url U --connection ID --credential-file F --company NAME [--tally URL] [--state-dir D] …`. */
export function registerTallyAgentCommand(program: Command): void {
  program
    .command('tally-agent')
    .description(
      'run beside TallyPrime: read it on this PC and push what changed to the worker (a Tally connection in agent mode); needs only Node, runs until stopped',
    )
    .addOption(requiredOption('--url <url>', "the worker's public URL (its http.publicUrl)"))
    .addOption(requiredOption('--connection <id>', 'the Tally connection (settings.mode: agent) in the worker config'))
    .addOption(requiredOption('--credential-file <file>', 'a file holding the credential `erp-sync connect` printed'))
    .addOption(requiredOption('--company <name>', 'the company as TallyPrime names it'))
    .option('--tally <url>', "TallyPrime's XML server on this PC", 'http://localhost:9000')
    .option('--state-dir <dir>', 'where the queue and position are kept (default ~/.erp-sync/tally-agent/<connection>)')
    .option('--log-file <file>', 'the log file (default <state-dir>/tally-agent.log)')
    .addOption(
      new Option('--poll-seconds <n>', 'seconds between reads of Tally (and between tries while away)')
        .argParser(intOption('--poll-seconds', 1, 86_400))
        .default(60),
    )
    .addOption(
      new Option('--range-size <n>', 'AlterIDs per request to Tally and per batch')
        .argParser(intOption('--range-size', 1, 20_000))
        .default(500),
    )
    .addOption(new Option('--encoding <e>', 'how Tally is asked').choices(['utf-16', 'utf-8']).default('utf-16'))
    .option('-V, --version', 'print the version (package, commit, Node) and exit')
    // Before the required options are checked: `erp-sync tally-agent --version` needs none of them.
    .on('option:version', () => {
      process.stdout.write(`${versionLine()}\n`);
      throw new CommanderError(0, 'commander.version', 'version printed');
    })
    .action(async (o: TallyAgentOptions) => {
      await runTallyAgent(o);
    });
}
