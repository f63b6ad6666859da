// Starts a worker thread on one of our modules. Built code (dist/*.js) runs as is; from the
// TypeScript sources (tsx, vitest) the worker first registers tsx's loader, since a worker does not
// inherit the loader hooks of the thread that starts it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `workerData`: what the worker reads as `worker_threads.workerData` */
export function startModuleWorker(module: URL, workerData?: unknown): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData });
  const tsx = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsx, 'dist/esm/api/index.mjs')).href;
  return new Worker(`import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`, {
    eval: true,
    workerData,
  });
}

/** the URL of a sibling module, with the extension of the calling module (.js built, .ts from source) */
export function siblingModule(name: string, callerUrl: string): URL {
  return new URL(`./${name}${path.extname(new URL(callerUrl).pathname)}`, callerUrl);
}
