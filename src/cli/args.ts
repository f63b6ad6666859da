// Splits a command line into command words and flags. Which flags exist, and which take a value,
// comes from the settings table, so `--manual-close start` and `--port 9000 start` both read as
// intended and a misspelt flag is named as such. Whether the command reads a flag is for
// loadConfig to say.
import { ConfigError, settings, type FlagValues } from '../config.js';

export interface ParsedArgs {
  words: string[];
  flags: FlagValues;
  help: boolean;
  /** --version or -v, anywhere */
  version: boolean;
}

const knownFlags = new Set(Object.values(settings).map((setting) => setting.flag));

const booleanFlags = new Set(
  Object.values(settings)
    .filter((setting) => setting.boolean)
    .map((setting) => setting.flag),
);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const flags: FlagValues = new Map();
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--help' || token === '-h') {
      help = true;
    } else if (token === '--version' || token === '-v') {
      version = true;
    } else if (token.startsWith('--')) {
      const [name = '', inline] = splitOnce(token.slice(2), '=');
      if (!knownFlags.has(name)) throw new ConfigError(name, `unknown option --${name}`);
      if (inline !== undefined) flags.set(name, inline);
      else if (booleanFlags.has(name)) flags.set(name, true);
      else {
        const value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) {
          throw new ConfigError(name, `--${name} needs a value`);
        }
        flags.set(name, value);
        i++;
      }
    } else if (token.startsWith('-') && token.length > 1) {
      throw new ConfigError(token, `unknown option ${token}`);
    } else {
      words.push(token);
    }
  }
  return { words, flags, help, version };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
