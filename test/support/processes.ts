// Child processes of the tests. Each one starts in a process group of its own (`detached`), so
// that stopping it signals everything it started as well (`process.kill(-pid)`): a wrapper such as
// tsx, or anything else the command runs. Every child is registered until it is gone; the check
// in test/support/setup_processes.ts fails a test file that leaves one running (and kills it), and
// test/support/global_processes.ts looks, after the whole run, for any process still carrying the
// run's tag in its environment (a worker that died could not check its own children).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** set by the global setup for one `vitest` run, passed on to the workers */
export const RUN_VARIABLE = 'ZENITH_TEST_RUN';
/** set in the environment of every child (inherited by what it starts): the run that started it */
export const CHILD_VARIABLE = 'ZENITH_TEST_CHILD';

/** how long a stopped process may take to exit before its group gets SIGKILL */
export const STOP_GRACE_MS = 30_000;
/** how long a group may take to disappear after SIGKILL before that is an error */
const KILL_WAIT_MS = 10_000;
/** how often a group is looked for while waiting for members other than the child to go */
const GROUP_POLL_MS = 20;

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StopResult extends ProcessResult {
  /** the grace period ran out and the group was killed with SIGKILL */
  forced: boolean;
}

export interface SpawnOptions {
  cwd?: string;
  /** the whole environment of the child (the run's tag is added) */
  env?: NodeJS.ProcessEnv;
}

export interface WaitOptions {
  stream?: 'stdout' | 'stderr';
  /** bounds a hang only: the wait ends as soon as the line comes or the process exits */
  timeoutMs?: number;
}

const registry = new Set<TestProcess>();
/** false once the file's tests are over: a test that timed out may still run on, and start processes */
let accepting = true;

/** Starts `command` in a process group of its own and registers it until it is gone. */
export function spawnProcess(command: string, args: readonly string[], options: SpawnOptions = {}): TestProcess {
  if (!accepting) throw new Error(`no process is started after the end of the test file: ${command} ${args.join(' ')}`);
  const env = { ...(options.env ?? process.env), [CHILD_VARIABLE]: process.env[RUN_VARIABLE] ?? 'untracked' };
  const child = spawn(command, args, { cwd: options.cwd, env, detached: true });
  const started = new TestProcess(child, [command, ...args].join(' '));
  registry.add(started);
  return started;
}

export class TestProcess {
  readonly pid: number;
  /** resolves when the process exited and its output is read to the end */
  readonly done: Promise<ProcessResult>;
  /** a stop (or a kill) was asked for */
  stopping = false;
  private out = '';
  private err = '';
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly exited: Promise<void>;
  private readonly watchers = new Set<() => void>();

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly description: string,
  ) {
    // a command that cannot start has no pid and reports an 'error' event, which must have a listener
    child.on('error', () => {});
    if (child.pid === undefined) throw new Error(`could not start ${description}`);
    this.pid = child.pid;
    child.stdout.on('data', (chunk: Buffer) => {
      this.out += chunk.toString();
      this.notify();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.err += chunk.toString();
      this.notify();
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        this.notify();
        resolve();
      }),
    );
    this.done = new Promise((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal, stdout: this.out, stderr: this.err })),
    );
  }

  stdout(): string {
    return this.out;
  }

  stderr(): string {
    return this.err;
  }

  /** null while the process runs */
  get exitCode(): number | null {
    return this.exitStatus?.code ?? null;
  }

  /** Sends `signal` to the whole process group (nothing when it is gone already). */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.stopping = true;
    // once the group is gone its id may be given to another one
    if (!this.gone()) signalGroup(this.pid, signal);
  }

  /**
   * Stops the process group: `signal` first, SIGKILL when it has not exited after `graceMs`.
   * Resolves once every process of the group is gone, with how the child ended.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = STOP_GRACE_MS): Promise<StopResult> {
    this.kill(signal);
    let forced = false;
    if (!(await this.goneWithin(graceMs))) {
      forced = true;
      signalGroup(this.pid, 'SIGKILL');
      if (!(await this.goneWithin(KILL_WAIT_MS))) {
        throw new Error(`process group ${this.pid} (${this.description}) is still there ${KILL_WAIT_MS} ms after SIGKILL`);
      }
    }
    return { ...(await this.done), forced };
  }

  /** The first complete line of output that matches; rejects when the process exits without one (or at the bound). */
  waitForLine(pattern: RegExp, options: WaitOptions = {}): Promise<string> {
    const { stream = 'stdout', timeoutMs = 120_000 } = options;
    return new Promise((resolve, reject) => {
      const check = () => {
        const text = stream === 'stdout' ? this.out : this.err;
        const complete = text.slice(0, text.lastIndexOf('\n') + 1);
        const line = complete.split(/\r?\n|\r/).find((l) => pattern.test(l));
        if (line !== undefined) finish(() => resolve(line));
        else if (this.exitStatus) {
          const { code, signal } = this.exitStatus;
          finish(() =>
            reject(new Error(`${this.name()} exited (${signal ?? code}) without a line matching ${pattern}:\n${this.output()}`)),
          );
        }
      };
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no line matching ${pattern} from ${this.name()} within ${timeoutMs} ms:\n${this.output()}`))),
        timeoutMs,
      );
      this.watchers.add(check);
      check();
    });
  }

  /** the process has exited and nothing is left in its group */
  gone(): boolean {
    return this.exitStatus !== null && !groupAlive(this.pid);
  }

  /** Resolves true once the process exited and its group is empty, false after `ms`. */
  async goneWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (!this.exitStatus) return false;
    // other members of the group (children of the child) have no exit event to wait for
    while (groupAlive(this.pid)) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
    }
    return true;
  }

  /** pid and command line, for messages */
  name(): string {
    return `pid ${this.pid} (${this.description})`;
  }

  private output(): string {
    return `--- stdout\n${this.out}--- stderr\n${this.err}`;
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}

/**
 * Stops every registered process group that is still there (a test's cleanup, whatever happened
 * in the test): `signal`, then SIGKILL after `graceMs`.
 */
export async function stopAllProcesses(signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<void> {
  await Promise.all([...registry].filter((p) => !p.gone()).map((p) => p.stop(signal, graceMs)));
}

/**
 * The end-of-file check: names every registered process group that is still there, kills it with
 * SIGKILL and waits until it is gone; forgets every registered process, and starts no more until
 * acceptNewProcesses (a test that timed out may go on after the end of its file).
 */
export async function reapLeftoverProcesses(): Promise<string[]> {
  accepting = false;
  const left = [...registry].filter((p) => !p.gone());
  registry.clear();
  const names = left.map((p) => {
    const others = groupMembers(p.pid).filter((member) => !member.startsWith(`${p.pid} `));
    return `${p.name()}${p.stopping ? ', signalled and still running' : ''}${others.length ? `; also in its group: ${others.join(', ')}` : ''}`;
  });
  for (const p of left) signalGroup(p.pid, 'SIGKILL');
  const stuck: string[] = [];
  for (const p of left) if (!(await p.goneWithin(KILL_WAIT_MS))) stuck.push(p.name());
  if (stuck.length > 0) names.push(`still there after SIGKILL: ${stuck.join(', ')}`);
  return names;
}

/** Processes may be started (again): a test file begins. */
export function acceptNewProcesses(): void {
  accepting = true;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Some process of the group is running (zombies waiting for a parent that does not reap them do not count). */
export function groupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  return groupMembers(pgid).length > 0;
}

/** "pid command" of the live processes in a group (Linux: from /proc; elsewhere the group id alone). */
export function groupMembers(pgid: number): string[] {
  if (process.platform !== 'linux') return groupAlive(pgid) ? [`group ${pgid}`] : [];
  const members: string[] = [];
  for (const { pid, stat } of processStats()) {
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, the last ')' ends it
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(`${pid} ${commandLine(pid)}`);
  }
  return members;
}

/** Linux: every process whose environment holds `name=value` (its own; zombies have none). */
export function processesWithVariable(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const { pid } of processStats()) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone meanwhile, or another user's
    }
    if (environ.split('\0').includes(wanted)) found.push(pid);
  }
  return found;
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '?';
  }
}

function* processStats(): Generator<{ pid: number; stat: string }> {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      yield { pid: Number(entry), stat: readFileSync(`/proc/${entry}/stat`, 'utf8') };
    } catch {
      // gone meanwhile
    }
  }
}

/** A port nothing listens on now, for a process that must be told its port (a server that logs none). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
