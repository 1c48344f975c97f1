import { readFileSync, readdirSync } from 'node:fs';

/** The ids of a process's children, from /proc (Linux); none when it is gone. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** A process and all its descendants (e.g. a cluster primary and its workers). */
export function processTree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(processTree)];
}
