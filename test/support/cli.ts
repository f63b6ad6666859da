// Runs the real `zenith` command line (TypeScript sources through tsx) as a child process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function spawnZenith(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(tsx, ['src/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  });
}

export function runZenith(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawnZenith(args, env);
  return collect(child);
}

export function collect(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the first stdout line that matches, or rejects after `ms`. */
export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, ms = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${ms} ms:\n${buffer}`)), ms);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
}

/**
 * Stops a child that may still run (for afterAll): SIGTERM, which tsx passes on to zenith (a
 * SIGKILL would kill tsx alone and leave zenith running), then SIGKILL after `ms`.
 */
export async function stopZenith(child: ChildProcessWithoutNullStreams, ms = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await closed;
  clearTimeout(timer);
}
