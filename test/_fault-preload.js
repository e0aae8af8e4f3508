/**
 * Loaded with `node -r` into a synth the fault-injection test kills: counts every call that
 * changes the file system and, at the call FAULT_KILL_AT names, kills its own process with SIGKILL
 * before the call runs (with FAULT_TORN=1, a file write first writes half its content), or, with
 * FAULT_KILL_ON, before the first call whose logged line matches that pattern; with FAULT_PAUSE_ON,
 * it waits FAULT_PAUSE_MS there instead, after writing the file FAULT_PAUSE_FLAG names. At the
 * call FAULT_FAIL_AT names, the call fails instead, with an input/output error (EIO), as a failing
 * disk would make it fail, and the process goes on. With FAULT_LOG set, it writes every such call, one per line, to that file when the process exits.
 * Plain JavaScript, loaded before anything else, so that every module sees the wrapped functions.
 */
'use strict';
const fs = require('node:fs');

const killAt = Number(process.env.FAULT_KILL_AT || 0);
/** Pauses FAULT_PAUSE_MS before the first call whose logged line matches FAULT_PAUSE_ON (once), as a slow disk would. */
const pauseOn = process.env.FAULT_PAUSE_ON ? new RegExp(process.env.FAULT_PAUSE_ON) : undefined;
let paused = false;
/** Kills before the first call whose logged line matches this pattern instead of a call number. */
const killOn = process.env.FAULT_KILL_ON ? new RegExp(process.env.FAULT_KILL_ON) : undefined;
const failAt = Number(process.env.FAULT_FAIL_AT || 0);
const torn = process.env.FAULT_TORN === '1';
const logFile = process.env.FAULT_LOG;
const original = {};
const calls = [];

/** The calls that change the file system, and for openSync the flags that make it one. */
const CHANGING = ['mkdirSync', 'writeFileSync', 'renameSync', 'unlinkSync', 'rmdirSync', 'rmSync', 'linkSync', 'chmodSync', 'copyFileSync', 'symlinkSync', 'appendFileSync', 'openSync', 'writeSync'];

for (const name of CHANGING) {
  original[name] = fs[name];
  fs[name] = function changing(...args) {
    if (name === 'openSync' && !/[wax+]/.test(String(args[1] ?? 'r'))) {
      return original[name].apply(fs, args);
    }
    calls.push(`${name} ${typeof args[0] === 'number' ? `fd ${args[0]}` : String(args[0])}${name === 'renameSync' || name === 'linkSync' ? ` -> ${args[1]}` : ''}`);
    if (pauseOn !== undefined && !paused && pauseOn.test(calls[calls.length - 1])) {
      paused = true;
      original.writeFileSync.call(fs, `${process.env.FAULT_PAUSE_FLAG}`, 'paused');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.FAULT_PAUSE_MS || 3000));
    }
    if (calls.length === killAt || (killOn !== undefined && killOn.test(calls[calls.length - 1]))) {
      if (torn && name === 'writeFileSync' && typeof args[1] === 'string') {
        original.writeFileSync.call(fs, args[0], args[1].slice(0, Math.floor(args[1].length / 2)));
      }
      process.kill(process.pid, 'SIGKILL');
    }
    if (calls.length === failAt) {
      const error = new Error(`EIO: i/o error, ${name.replace(/Sync$/, '')} '${args[0]}'`);
      Object.assign(error, { errno: -5, code: 'EIO', syscall: name.replace(/Sync$/, ''), path: String(args[0]) });
      throw error;
    }
    return original[name].apply(fs, args);
  };
}

if (logFile) {
  process.on('exit', () => original.writeFileSync.call(fs, logFile, calls.map((c) => `${c}\n`).join('')));
}
