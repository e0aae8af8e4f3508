/**
 * A process and its descendants, read from /proc, and stopping them all: what `playground down`
 * uses to leave no program of the playground running, whatever state its server was left in.
 * A process is known by its id and its start time, so that an id the system gave to another
 * process since is never signalled.
 */
import * as fs from 'node:fs';

/** A running process. */
export interface Proc {
  readonly pid: number;
  readonly ppid: number;
  /** Its start time, in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  readonly start: string;
}

/** The process of this id, or undefined when none runs (or it is a zombie, already ended). */
export function proc(pid: number): Proc | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name, which is in parentheses and may hold anything.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : { pid, ppid: Number(fields[1]), start: fields[19] };
  } catch {
    return undefined;
  }
}

/** Whether this very process still runs. */
export function alive(p: Proc): boolean {
  return proc(p.pid)?.start === p.start;
}

/** The process `root` and every descendant of it that runs now, root first. */
export function listTree(root: number): Proc[] {
  const all = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => proc(Number(d))).filter((p): p is Proc => p !== undefined);
  const tree = all.filter((p) => p.pid === root);
  for (let i = 0; i < tree.length; i++) {
    tree.push(...all.filter((p) => p.ppid === tree[i].pid));
  }
  return tree;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until none of `procs` runs, or `ms` passed; returns those that still run. */
async function untilGone(procs: readonly Proc[], ms: number): Promise<Proc[]> {
  for (const start = Date.now(); ; await sleep(100)) {
    const left = procs.filter(alive);
    if (left.length === 0 || Date.now() - start > ms) {
      return left;
    }
  }
}

/**
 * Stops `root` and its descendants, and the processes `also` (recorded earlier, perhaps orphaned
 * since): SIGTERM to root, which stops its own children, then, after `ms`, SIGTERM to whatever
 * of them runs, and SIGKILL 10 s later. Returns how many ran when it was called.
 */
export async function stopTree(root: number, ms: number, also: readonly number[] = []): Promise<number> {
  const tree = [...listTree(root), ...also.flatMap((pid) => listTree(pid))].filter((p, i, all) => all.findIndex((q) => q.pid === p.pid) === i);
  const signal = (procs: readonly Proc[], name: NodeJS.Signals) => procs.filter(alive).forEach((p) => {
    try {
      process.kill(p.pid, name);
    } catch {
      // Gone in between.
    }
  });
  signal(tree.filter((p) => p.pid === root), 'SIGTERM');
  let left = await untilGone(tree, ms);
  signal(left, 'SIGTERM');
  left = await untilGone(left, 10_000);
  signal(left, 'SIGKILL');
  await untilGone(left, 10_000);
  return tree.length;
}
