import pino from 'pino';
import { RelayAgent, RelayFatalError } from './relay-agent';
import { loadRelayConfig, RelayConfigError } from './relay-config';

/**
 * The relay agent: `npm run start:relay -- <config.json>` (or SVC_RELAY_CONFIG). It needs no
 * database and opens no port: it connects out to the control plane's relay endpoint.
 * Exit codes: 0 stopped, 2 bad configuration, 3 registration refused.
 */
async function main(): Promise<void> {
  // Written asynchronously: under load, lines go out in batches instead of one write each.
  const destination = pino.destination({ dest: 1, sync: false });
  const log = pino({ base: { service: 'relay' }, level: process.env.LOG_LEVEL ?? 'info' }, destination);
  const exit = (code: number): never => {
    try {
      destination.flushSync();
    } catch {
      // Standard output is gone: nothing more can be written.
    }
    process.exit(code);
  };
  const path = process.argv[2] ?? process.env.SVC_RELAY_CONFIG;
  if (!path) {
    process.stderr.write('Usage: npm run start:relay -- <config.json>   (or set SVC_RELAY_CONFIG)\n');
    process.exit(2);
  }
  let agent: RelayAgent;
  try {
    agent = new RelayAgent(loadRelayConfig(path), log);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    void agent.stop().then(() => exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    await agent.run();
  } catch (error) {
    // Asked to stop before it got going: the stop handler exits.
    if (stopping) return;
    log.fatal({ error: (error as Error).message }, 'relay stopped');
    process.stderr.write(`${(error as Error).message}\n`);
    exit(error instanceof RelayFatalError || error instanceof RelayConfigError ? 3 : 1);
  }
}

void main();
