/**
 * Runbooks: Markdown files of numbered steps with the exact commands filled in, written next to
 * the manifests so that a renamed cluster never leaves a stale command behind.
 */

/** Where a runbook's command blocks run: the output folder, named by the manifest file it holds. */
export function outputFolderRunIn(manifestFile: string): string {
  return `the output folder (the one that holds ${manifestFile})`;
}

/** A file's content shown in a runbook step's block. */
export interface RunbookFile {
  /** The block's language, after the opening fence (for example `sql`). */
  readonly language: string;
  /** The file's text; a final line break is dropped. */
  readonly content: string;
}

/** One step of a runbook. */
export interface RunbookStep {
  /** The step's title. */
  readonly title: string;
  /**
   * Explanation before the commands, one paragraph per entry.
   * @default - no text
   */
  readonly text?: string[];
  /**
   * Shell commands, one per entry, shown in one `bash` block (the runbooks are bash: a check may read several lists through `<(…)`).
   * @default - no commands
   */
  readonly commands?: string[];
  /**
   * Where the step's commands run, when not where the runbook's {@link Runbook.runIn} says: the
   * first line of the block, as a shell comment.
   * @default - the runbook's `runIn`
   */
  readonly runIn?: string;
  /**
   * A file's content shown in a block (for example a patch), with its language.
   * @default - no file
   */
  readonly file?: RunbookFile;
}

/**
 * A runbook: a title, an introduction and its steps.
 * @jsii ignore
 */
export interface Runbook {
  /** The runbook's title, its level-one heading. */
  readonly title: string;
  /**
   * Paragraphs before the first step.
   * @default - none
   */
  readonly intro?: readonly string[];
  /** The steps, numbered from 1 in this order. */
  readonly steps: readonly RunbookStep[];
  /**
   * Where every command block runs (for example "the output folder, which holds demo.k8s.yaml"):
   * the first line of each block, as a shell comment, so that a block pasted as a whole says
   * where it belongs.
   * @default - the blocks say nothing of where they run
   */
  readonly runIn?: string;
}

/**
 * Step: a namespace the manifests use and do not create, made when it does not exist yet (a
 * server-side apply of the bare Namespace changes nothing in one that exists). `what` names whose
 * objects live there, e.g. "the cluster".
 */
export function namespaceStep(namespace: string, what: string): RunbookStep {
  return {
    title: `The ${what}'s namespace`,
    text: [`Every object of the ${what} is in namespace \`${namespace}\`, which the manifests do not create: this makes it when it does not exist yet.`],
    commands: [`kubectl create namespace ${namespace} --dry-run=client -o json | kubectl apply --server-side -f -`],
  };
}

/** Renders a runbook as Markdown. */
export function renderRunbook(runbook: Runbook): string {
  const out: string[] = [`# ${runbook.title}`, ''];
  for (const paragraph of runbook.intro ?? []) {
    out.push(paragraph, '');
  }
  runbook.steps.forEach((step, i) => {
    out.push(`## ${i + 1}. ${step.title}`, '');
    for (const paragraph of step.text ?? []) {
      out.push(paragraph, '');
    }
    if (step.commands && step.commands.length > 0) {
      const runIn = step.runIn ?? runbook.runIn;
      out.push('```bash', ...(runIn ? [`# run in ${runIn}`] : []), ...step.commands, '```', '');
    }
    if (step.file) {
      out.push(`\`\`\`${step.file.language}`, step.file.content.replace(/\n$/, ''), '```', '');
    }
  });
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
