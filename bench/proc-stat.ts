/** Reading a process's CPU time from Linux's /proc, for the benches that measure another process. */
import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1]), or undefined. */
export function procStat(pid: string | number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** Busy clock ticks (user + system; 10 ms each, USER_HZ 100) of a stat line, with its reaped children's if asked. */
export function busyTicks(fields: string[], withReapedChildren = false): number {
  const own = Number(fields[11]) + Number(fields[12]);
  return withReapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own;
}
