#!/usr/bin/env node
/**
 * `npm run playground -- up|down|env`: the playground's command (playground.ts). Its output is
 * shell: `#` lines for people, `export` lines for `eval`. Exit code 0 when it did what it was asked,
 * 1 when it could not, 2 for a command it does not know.
 */
import { down, env, serve, up } from './playground';

const USAGE = `Usage: npm run playground -- up|down|env
  up    starts, from the programs scripts/build-control-plane.sh built, an API server with
        cert-manager, the operator's CRDs and the real operator, and prints the lines that point
        kubectl and cmctl at it (eval "$(npm run --silent playground -- up)" runs them)
  down  stops every program it started and removes its state
  env   prints those lines again, while it is up
`;

async function main(argv: readonly string[]): Promise<number> {
  try {
    switch (argv[0]) {
      case 'up':
        process.stdout.write(await up());
        return 0;
      case 'down':
        process.stdout.write(await down());
        return 0;
      case 'env':
        process.stdout.write(env());
        return 0;
      case 'serve':
        // The server up starts in the background; not for people.
        await serve(argv[1]);
        return 0;
      default:
        process.stderr.write(USAGE);
        return 2;
    }
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
