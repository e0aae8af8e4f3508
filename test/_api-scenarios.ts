/**
 * Scenarios that give every target of the assembly (see `_api-model.ts`), found by letting the
 * library judge: targets are added to a plan one at a time, the program is run in this process,
 * and a refusal's one line (`<construct path>: <field>: received …`) says which place to change:
 * the next candidate there, an optional place left out to be given, or, when nothing works, the
 * target is left to a later scenario. A target no scenario can give is reported with the refusal
 * that stopped it.
 *
 * To see how it searches: `API_DEBUG=1` prints each target and its runs, `API_DEBUG=2` each
 * refusal too; `API_ONLY=<text>` keeps only the targets whose key holds the text.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as reflect from 'jsii-reflect';
import { ApiCallable, Coverage, Step, Target, callables, isOwn, isStruct, structFields } from './_api-model';
import { Outcome, Place, Plan, Program, Root, buildProgram, enumValue, memberPath, runProgram, stepPath } from './_api-programs';

/**
 * A scenario: one app, with the plan it was built from, and the refusal the library gives it, for
 * a scenario made to give a value the library refuses at its place (an enum member it takes only in
 * a later phase, say): every language must then give the same line.
 */
export interface Scenario {
  readonly name: string;
  readonly plan: Plan;
  readonly program: Program;
  readonly refusal?: string;
}

/** What the generation found. */
export interface Generated {
  readonly scenarios: readonly Scenario[];
  /** Every target some scenario gives. */
  readonly covered: ReadonlySet<string>;
  /** The targets given only in scenarios the library refuses, as it refuses the value at that place. */
  readonly refused: ReadonlySet<string>;
  /** The targets no scenario gives, each with why. */
  readonly uncovered: readonly { readonly key: string; readonly why: string }[];
  /** Failures that were not the library's one-line refusal (a `TypeError`, say): each a defect. */
  readonly crashes: readonly string[];
  /** How many programs were run. */
  readonly runs: number;
}

/** Attempts at one target before it is left to the next pass or scenario. */
const MAX_ATTEMPTS = 30;

/** Times a target may be left before no later scenario tries it. */
const MAX_FAILURES = 6;

/** Generates the scenarios of an assembly's targets. */
export function generateScenarios(assembly: reflect.Assembly, cov: Coverage): Generated {
  const routes = structRoutes(assembly);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'api-scenarios-'));
  const scenarios: Scenario[] = [];
  const covered = new Set<string>();
  const crashes: string[] = [];
  const why = new Map<string, string>();
  const refused = new Set<string>();
  const failures = new Map<string, number>();
  let runs = 0;
  const run = (program: Program): Outcome => {
    const folder = path.join(work, `run-${++runs}`);
    try {
      return runProgram(program, folder);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  };
  const refusals = new Map<string, { readonly plan: Plan; readonly message: string }>();
  // The callable each target is given through: its own, or the one whose route reaches its struct.
  const through = (t: Target) => ('callable' in t.owner ? t.owner.callable.key : routes.get(t.owner.struct.fqn)?.callable.key);
  const wanted = cov.targets.filter((t) => !process.env.API_ONLY || t.key.includes(process.env.API_ONLY));
  try {
    // Scenarios of one callable at a time (a construct and its props, a method and its parameters),
    // each a small app of its own: what two constructs declare cannot meet.
    for (const callable of callables(assembly)) {
      const group = wanted.filter((t) => through(t) === callable.key);
      for (;;) {
        let state: State = { plan: { roots: [], set: new Set(), choice: new Map() }, locked: new Set() };
        // Passes over the targets left, until one adds nothing: a call may need what a later target makes first.
        for (let added = true; added;) {
          added = false;
          for (const target of group) {
            if (covered.has(target.key) || (failures.get(target.key) ?? 0) >= MAX_FAILURES || buildProgram(state.plan).covered.has(target.key)) {
              continue;
            }
            const start = runs;
            const result = tryTarget(state, target, routes, run);
            if (process.env.API_DEBUG) {
              process.stderr.write(`${scenarios.length} ${target.key}: ${runs - start} runs, ${'state' in result ? 'given' : result.why.slice(0, 200)}\n`);
            }
            if ('state' in result) {
              // Added only if the program now gives more than before: a target can be given at the cost of another.
              added ||= [...buildProgram(result.state.plan).covered].some((k) => !buildProgram(state.plan).covered.has(k));
              state = result.state;
              why.delete(target.key);
              refusals.delete(target.key);
            } else {
              failures.set(target.key, (failures.get(target.key) ?? 0) + 1);
              why.set(target.key, result.why);
              if (result.crash) {
                crashes.push(`${target.key}: ${result.why}`);
              } else if (result.refusedHere) {
                refusals.set(target.key, { plan: result.refusedHere, message: result.why });
              }
            }
          }
        }
        const program = buildProgram(state.plan);
        const fresh = [...program.covered].filter((k) => !covered.has(k));
        if (fresh.length === 0 || !run(program).ok) {
          break;
        }
        fresh.forEach((k) => covered.add(k));
        scenarios.push({ name: `s${scenarios.length + 1}`, plan: state.plan, program });
      }
    }
    // One refused scenario for each target the library refuses at its own place, on the plan that gave it.
    for (const [key, { plan, message }] of refusals) {
      if (!covered.has(key)) {
        scenarios.push({ name: `r${scenarios.length + 1}`, plan, program: buildProgram(plan), refusal: message });
        refused.add(key);
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const uncovered = cov.targets.filter((t) => !covered.has(t.key) && !refused.has(t.key)).map((t) => ({ key: t.key, why: why.get(t.key) ?? 'never reached' }));
  return { scenarios, covered, refused, uncovered, crashes, runs };
}

/**
 * A plan, and what the targets it gives hold fixed: `set:<path>` a place that must stay given,
 * `choice:<path>` a union's member or an enum's member that must stay chosen.
 */
interface State {
  readonly plan: Plan;
  readonly locked: ReadonlySet<string>;
}

/** Adds a target to a plan, changing it as the library's refusals say, until it runs or cannot. */
function tryTarget(state: State, target: Target, routes: Map<string, Route>, run: (p: Program) => Outcome): Attempt {
  const ways = applyTarget(state, target, routes);
  if ('why' in ways) {
    return ways;
  }
  let result: Attempt = { why: 'no way to give it' };
  for (const applied of ways) {
    result = search(state, applied, target, run);
    if ('state' in result || result.crash) {
      return result;
    }
  }
  return result;
}

/** How an attempt at a target ended. */
type Attempt = { readonly state: State } | { readonly why: string; readonly crash?: boolean; readonly refusedHere?: Plan };

/** Searches for a plan that runs, from a target's places given on the state before it (`state`). */
function search(state: State, applied: State, target: Target, run: (p: Program) => Outcome): Attempt {
  const set = new Set(applied.plan.set);
  const choice = new Map(applied.plan.choice);
  const learned = new Map(applied.plan.learned ?? []);
  const locked = applied.locked;
  const before = new Set(buildProgram(state.plan).places.keys());
  const probed = new Set<string>();
  const wrapped = new Set<string>();
  const cleared = new Set<string>();
  const repeats = new Map<string, number>();
  let previous: { readonly message: string; readonly changed: readonly string[] } | undefined;
  let probe: { readonly at: string; readonly previous: number | undefined; readonly message: string } | undefined;
  let last = '';
  // The first plan on which the library refused the target's own value, if it did.
  let refusedHere: Plan | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const plan: Plan = { roots: applied.plan.roots, set, choice, learned };
    let program: Program;
    try {
      program = buildProgram(plan);
    } catch (e) {
      return { why: (e as Error).message };
    }
    if (!program.covered.has(target.key)) {
      return { why: 'not given by the program its steps build' };
    }
    const outcome = run(program);
    if (outcome.ok) {
      return { state: { plan: { roots: plan.roots, set: new Set(set), choice: new Map(choice), learned: new Map(learned) }, locked } };
    }
    if (!outcome.refusal) {
      return { why: outcome.message, crash: true };
    }
    if (process.env.API_DEBUG === '2') {
      process.stderr.write(`    ${outcome.message.slice(0, 300)}\n    ${JSON.stringify([...choice].filter(([k]) => !before.has(k)))}\n`);
    }
    if (refusesTarget(target, outcome.message)) {
      refusedHere ??= { roots: applied.plan.roots, set: new Set(set), choice: new Map(choice), learned: new Map(learned) };
    }
    last = outcome.message;
    if (probe !== undefined && sameComplaint(outcome.message, probe.message)) {
      // The place probed was not what the refusal is about: back to its candidate before.
      if (probe.previous === undefined) {
        choice.delete(probe.at);
      } else {
        choice.set(probe.at, probe.previous);
      }
    }
    probe = undefined;
    // A place whose changes keep meeting the same complaint is not what the complaint is about,
    // whatever it holds ("one of the components with a certificate: none yet").
    if (previous !== undefined && !sameComplaint(outcome.message, previous.message)) {
      // Something else changed what is wrong: every place is a suspect again.
      cleared.clear();
    }
    if (previous !== undefined) {
      for (const at of previous.changed) {
        const key = `${at}\u0000${complaintOf(outcome.message)}`;
        repeats.set(key, (repeats.get(key) ?? 0) + 1);
        if (repeats.get(key)! >= 3) {
          cleared.add(at);
        }
      }
    }
    const before2 = new Map(choice);
    if (attribute(outcome.message, program, cleared).some((action) => change(action, set, choice, locked, program, wrapped, learned))) {
      previous = { message: outcome.message, changed: [...choice.keys()].filter((k) => choice.get(k) !== before2.get(k)) };
      continue;
    }
    previous = undefined;
    // A refusal that names no place of the program (an object declared twice, a value that must
    // match another): each place this target added tried at its next candidate, then each place
    // left out of the construct the refusal names given, one at a time, kept if the complaint changes.
    const named = program.constructs.get(/^([^:\n]+): /.exec(outcome.message)?.[1] ?? '') ?? [];
    const at = [...program.places.keys()].find((p) => !before.has(p) && !probed.has(p) && !locked.has(`choice:${p}`) && canChange(p, choice, program));
    if (at !== undefined) {
      probed.add(at);
      probe = { at, previous: choice.get(at), message: outcome.message };
      choice.set(at, (choice.get(at) ?? 0) + 1);
      continue;
    }
    const unset = [...program.unset.values()].find((u) => named.includes(u.statement) && !probed.has(u.path) && u.field !== '');
    if (unset === undefined) {
      return { why: last, refusedHere };
    }
    probed.add(unset.path);
    set.add(unset.path);
  }
  return { why: `still refused after ${MAX_ATTEMPTS} attempts: ${last}`, refusedHere };
}

/** What a refusal says to change: the value at a place given, or a place left out. */
type Action = { readonly places: readonly string[]; readonly absent: boolean } | { readonly unset: string } | { readonly learn: string; readonly words: readonly string[] };

/** Makes the change a refusal asks for; false when none can be made. */
function change(action: Action, set: Set<string>, choice: Map<string, number>, locked: ReadonlySet<string>, program: Program, wrapped: Set<string>,
  learned: Map<string, readonly string[]>): boolean {
  if ('unset' in action) {
    if (set.has(action.unset)) {
      return false;
    }
    set.add(action.unset);
    return true;
  }
  if ('learn' in action) {
    const known = learned.get(action.learn) ?? [];
    const fresh = action.words.filter((w) => !known.includes(w));
    if (fresh.length === 0 || locked.has(`choice:${action.learn}`)) {
      return false;
    }
    learned.set(action.learn, [...fresh, ...known]);
    choice.set(action.learn, 0);
    return true;
  }
  if (action.absent) {
    // The library wants nothing there: leave the place out, where the plan may.
    for (const at of action.places) {
      const base = at.replace(/\|as$/, '');
      if (!locked.has(`set:${base}`) && set.has(base)) {
        set.delete(base);
        return true;
      }
    }
  }
  for (const at of action.places) {
    const place = program.places.get(at)!;
    if (locked.has(`choice:${at}`)) {
      continue;
    }
    const now = choice.get(at) ?? 0;
    if (now + 1 < place.candidates) {
      choice.set(at, now + 1);
      return true;
    }
    if (!wrapped.has(at) && place.candidates > 1) {
      // Each place may start over once: a candidate refused for another place's sake may do now.
      wrapped.add(at);
      choice.set(at, 0);
      return true;
    }
  }
  for (const at of action.places) {
    const base = at.replace(/\|as$/, '');
    if (!locked.has(`set:${base}`) && set.has(base)) {
      set.delete(base);
      return true;
    }
  }
  return false;
}

/** A refusal's complaint: the message, whatever value it received. */
function complaintOf(message: string): string {
  return message.replace(/received .*?; expected/s, 'received …; expected');
}

/** Whether two refusals make the same complaint, whatever value they received. */
function sameComplaint(a: string, b: string): boolean {
  return complaintOf(a) === complaintOf(b);
}

/** Whether a place has a candidate left to try. */
function canChange(at: string, choice: Map<string, number>, program: Program): boolean {
  const place = program.places.get(at);
  return place !== undefined && (choice.get(at) ?? 0) + 1 < place.candidates;
}

/**
 * Whether a refusal is the library refusing the enum member a target chooses, at its place (a
 * phase a fresh synth cannot start at): the value, as the library names it, is what it received.
 */
function refusesTarget(target: Target, message: string): boolean {
  const last = target.steps[target.steps.length - 1];
  if (last === undefined || !('enumMember' in last)) {
    return false;
  }
  const [, enumName, member] = / = (\w+)\.(\w+)$/.exec(target.key) ?? [];
  const value = enumValue(enumName, member);
  return value !== undefined && message.includes(`received ${JSON.stringify(value)}`);
}

/**
 * Reads a refusal's construct path and field, and lists what to change, most likely first: the
 * places the field names (the deepest first) or holds, the place holding the value received,
 * places of the same construct the message mentions (`expected nothing when target.database is
 * given`), then a place left out that the field is in or holds.
 */
function attribute(message: string, program: Program, cleared: ReadonlySet<string> = new Set()): Action[] {
  const match = /^([^:\n]+): (.+?): received (.*?); expected (.*)$/s.exec(message);
  if (!match) {
    return [];
  }
  const [, where, named, received, expected] = match;
  const statements = program.constructs.get(where) ?? [];
  const places = [...program.places.values()].filter((p) => statements.includes(p.statement) && !cleared.has(p.path));
  const absent = /^nothing\b/.test(expected);
  const fields = named.split(', ').map((f) => f.replace(/^\w+\(("[^"]*")?\)\.?/, ''));
  const deepestFirst = (a: Place, b: Place) => b.field.length - a.field.length || (a.path.endsWith('|as') ? 1 : 0) - (b.path.endsWith('|as') ? 1 : 0);
  const given = (found: Place[], drop: boolean): Action[] => (found.length > 0 ? [{ places: found.sort(deepestFirst).map((p) => p.path), absent: drop }] : []);
  const mentions = (field: string) => field !== '' && !fields.some((f) => within(f, field)) && new RegExp(`(^|[^\\w.])${escape(field)}\\b`).test(expected);
  const unset = [...program.unset.values()].filter((u) => statements.includes(u.statement) && u.field !== '');
  // The field named, what it holds, the value received.
  const namedActions: Action[] = [
    ...fields.flatMap((field) => [
      ...given(places.filter((p) => within(field, p.field)), absent),
      ...given(places.filter((p) => field !== '' && p.field !== field && within(p.field, field)), absent),
    ]),
    ...given(places.filter((p) => p.shown !== undefined && p.shown === received), absent),
  ];
  // Other places of the construct the message mentions: "no secretNames with method …", "nothing when target.database is given".
  const mentionedActions: Action[] = [
    ...given(places.filter((p) => mentions(p.field)), /^nothing when\b/.test(expected)),
    ...(/^nothing when\b/.test(expected) ? [] : unset.filter((u) => mentions(u.field)).slice(0, 1).map((u) => ({ unset: u.path }))),
  ];
  // A place left out that the field is in or holds (`target` lacking its `host`).
  const unsetActions: Action[] = fields.flatMap((field) => {
    const found = unset.find((u) => within(field, u.field)) ?? unset.find((u) => field !== '' && within(u.field, field));
    return found ? [{ unset: found.path }] : [];
  });
  // Where the refusal lists what it expects ("one of …: coordinator, store", `"v4.0.5"`), a string place it is about learns those words.
  const words = expectedWords(expected);
  const learnable = [...namedActions.flatMap((a) => ('places' in a ? a.places : [])), ...places.filter((p) => p.shown === received).map((p) => p.path)];
  const learnActions: Action[] = words.length === 0 ? [] : learnable.filter((at) => program.strings.has(at)).slice(0, 1).map((at) => ({ learn: at, words }));
  // A construct made for a place the refusal names, whose string places can take a value the
  // refusal mentions ("the certificates of cluster demo/other"): the first such place takes it.
  const mentionedWords = new Set(expected.split(/[^\w.-]+/));
  const innerActions: Action[] = namedActions.flatMap((a) => ('places' in a ? a.places : [])).flatMap((named) => [...program.places.values()]
    .filter((p) => p.path.startsWith(`${named}@`) && p.options?.some((o) => mentionedWords.has(o)) && !mentionedWords.has(p.shown?.slice(1, -1) ?? ''))
    .slice(0, 1).map((p) => ({ learn: p.path, words: p.options!.filter((o) => mentionedWords.has(o)) })));
  learnActions.push(...innerActions);
  const actions = learnActions.length > 0 ? [...learnActions, ...namedActions, ...mentionedActions, ...unsetActions] : received === 'nothing' ? [...unsetActions, ...namedActions, ...mentionedActions]
    : /^(no|nothing when)\b/.test(expected) ? [...mentionedActions, ...namedActions, ...unsetActions]
      : [...namedActions, ...mentionedActions, ...unsetActions];
  return actions;
}

/** The values a refusal's expected part lists: the quoted ones, or the comma-separated list after its last colon. */
function expectedWords(expected: string): string[] {
  const quoted = [...expected.matchAll(/"([^"\n]{1,253})"/g)].map((m) => m[1]);
  if (quoted.length > 0) {
    return quoted;
  }
  const list = /: ([a-z0-9][\w.-]*(, [a-z0-9][\w.-]*)*)$/i.exec(expected);
  return list && list[1] !== 'none yet' ? list[1].split(', ') : [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a refusal's field is a place's field or lies inside it (`a.b[0]` is inside `a.b` and `a`). */
function within(field: string, place: string): boolean {
  return field === place || (place !== '' && (field.startsWith(`${place}.`) || field.startsWith(`${place}[`)));
}

/** A way from a callable to a struct it takes: the callable and the steps to the struct's place. */
interface Route {
  readonly callable: ApiCallable;
  readonly steps: readonly Step[];
}

/** The shortest route to each struct of the library, by fqn. */
function structRoutes(assembly: reflect.Assembly): Map<string, Route> {
  const routes = new Map<string, Route>();
  const queue: { route: Route; type: reflect.TypeReference }[] = [];
  for (const callable of callables(assembly)) {
    for (const p of callable.parameters) {
      queue.push({ route: { callable, steps: [{ name: p.name, optional: p.optional }] }, type: p.type });
    }
  }
  while (queue.length > 0) {
    const { route, type } = queue.shift()!;
    if (type.unionOfTypes) {
      type.unionOfTypes.forEach((m, i) => queue.push({ route: { ...route, steps: [...route.steps, { member: i }] }, type: m }));
    } else if (type.arrayOfType) {
      queue.push({ route: { ...route, steps: [...route.steps, { item: true }] }, type: type.arrayOfType });
    } else if (type.mapOfType) {
      queue.push({ route: { ...route, steps: [...route.steps, { entry: true }] }, type: type.mapOfType });
    } else if (isStruct(type.type) && isOwn(type.type) && !routes.has(type.type.fqn)) {
      routes.set(type.type.fqn, route);
      for (const f of structFields(type.type)) {
        queue.push({ route: { ...route, steps: [...route.steps, { name: f.name, optional: f.optional }] }, type: f.type });
      }
    }
  }
  return routes;
}

/** The plan with a target's callable called (the first call of it, or a new one) and its steps given, those places locked. */
function applyTarget(state: State, target: Target, routes: Map<string, Route>): State[] | { readonly why: string } {
  let callable: ApiCallable;
  let steps: readonly Step[];
  if ('callable' in target.owner) {
    callable = target.owner.callable;
    steps = target.steps;
  } else {
    const route = routes.get(target.owner.struct.fqn);
    if (!route) {
      return { why: `no callable takes ${target.owner.struct.name}` };
    }
    callable = route.callable;
    steps = [...route.steps, ...target.steps];
  }
  // The first call of the callable, where a member chosen there for another target is not in the
  // way; then a call of its own.
  const existing = steps.length > 0 ? state.plan.roots.find((r) => r.callable.key === callable.key) : undefined;
  const onExisting = existing && givePlaces(state, existing, steps);
  const root = { key: `${callable.key}#${state.plan.roots.filter((r) => r.callable.key === callable.key).length + 1}`, callable };
  const onNew = givePlaces({ plan: { ...state.plan, roots: [...state.plan.roots, root] }, locked: state.locked }, root, steps);
  const ways = [onExisting, onNew].filter((w): w is State => w !== undefined);
  return ways.length > 0 ? ways : { why: 'another member is chosen there for a target given before' };
}

/** The plan with the places of a target's steps below a root given and locked; undefined where a member chosen for another target is in the way. */
function givePlaces(state: State, root: Root, steps: readonly Step[]): State | undefined {
  const set = new Set(state.plan.set);
  const choice = new Map(state.plan.choice);
  const locked = new Set(state.locked);
  let at = root.key;
  for (const step of steps) {
    if ('member' in step || 'enumMember' in step) {
      const place = 'member' in step ? memberPath(at) : at;
      const wanted = 'member' in step ? step.member : step.enumMember;
      if (locked.has(`choice:${place}`) && (choice.get(place) ?? 0) !== wanted) {
        return undefined;
      }
      choice.set(place, wanted);
      locked.add(`choice:${place}`);
    } else {
      at = stepPath(at, step);
      if ('name' in step && step.optional) {
        set.add(at);
        locked.add(`set:${at}`);
      }
    }
  }
  return { plan: { roots: state.plan.roots, set, choice, learned: state.plan.learned }, locked };
}
