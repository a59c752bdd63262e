import { AppConfig, ConfigError, loadConfig } from './app-config';

/** For process entry points: the validated settings, or a message naming the bad ones and exit 78 (EX_CONFIG). */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}
