/**
 * The `OutputFile` construct: a file other than a manifest, declared where it is decided and
 * written by `synthesize` into the files folder beside the manifests' output folder.
 */
import { Construct, IConstruct } from 'constructs';
import { ClusterTlsError, inputError } from '../model/errors';
import { ShapeOf, checkProps, checkRendered, declareShape } from '../model/props';

const OUTPUT_FILE = Symbol.for('cdk8s-cluster-tls.OutputFile');

/**
 * The content of an {@link OutputFile} rendered at synth, after every construct was added: in
 * TypeScript `{ render: () => text }`; in Python, Java and Go an object implementing `render`.
 */
export interface IOutputFileContent {
  /** The file's text. */
  render(): string;
}

/** Whether an {@link OutputFile} is written, asked at synth, after every construct was added. */
export interface IOutputFileCondition {
  /** True to write the file at this synth. */
  isWritten(): boolean;
}

/** Props of {@link OutputFile}. */
export interface OutputFileProps {
  /** Path of the file relative to the files folder (`cluster-tls`, beside the output folder), with '/' separators. */
  readonly path: string;
  /** The content, or an object that renders it at synth (after every construct was added). */
  readonly content: string | IOutputFileContent;
  /**
   * Whether the file is an executable script (mode 0755 instead of 0644).
   * @default false
   */
  readonly executable?: boolean;
  /**
   * Whether the file is written, asked at synth (after every construct was added), for a file
   * that depends on what the app adds later.
   * @default - always written
   */
  readonly when?: IOutputFileCondition;
}

const OUTPUT_FILE_SHAPE = declareShape('OutputFile', {
  path: { type: 'string', kind: 'path', example: 'notes/restore.md' },
  // What the file's reader holds (see TEXT_LIMITS), not the bound of a name: a task file of many sources is long.
  content: { type: 'value', kind: 'file', is: (c) => typeof c === 'string' || hasMethod(c, 'render'), expected: 'a string, or an object whose render() returns it', example: '# Restore' },
  executable: 'boolean?',
  when: { type: 'value', optional: true, is: (c) => hasMethod(c, 'isWritten'), expected: 'an object whose isWritten() returns true or false' },
} satisfies ShapeOf<OutputFileProps>);

/**
 * Whether a value is an object with a method of that name: an app's own implementation of an
 * interface, or the object the jsii runtime stands in for one of Python, Java or Go (whose methods
 * it may define as it likes). A property that throws when read is refused by the props check.
 */
function hasMethod(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function';
}

/**
 * A file written beside the manifests at synth, in the files folder: a runbook, chart values, a
 * migration configuration, cfssl inputs. Constructs only declare files; {@link synthesize} writes them.
 */
export class OutputFile extends Construct {
  /** Whether a construct is an {@link OutputFile}. */
  public static isOutputFile(x: IConstruct): x is OutputFile {
    return typeof x === 'object' && x !== null && OUTPUT_FILE in x;
  }

  /** Path relative to the output folder. */
  public readonly path: string;
  /** Whether the file is executable. */
  public readonly executable: boolean;
  private readonly content: string | IOutputFileContent;
  private readonly when?: IOutputFileCondition;

  constructor(scope: Construct, id: string, props: OutputFileProps) {
    super(scope, id);
    props = checkProps(this, props, OUTPUT_FILE_SHAPE);
    const parts = props.path.split('/');
    if (props.path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) {
      inputError(this, 'path', props.path, 'a relative path inside the files folder');
    }
    this.path = props.path;
    this.executable = props.executable ?? false;
    this.content = props.content;
    this.when = props.when;
    Object.defineProperty(this, OUTPUT_FILE, { value: true });
  }

  /** Whether the file is written at this synth. */
  public isWritten(): boolean {
    return this.when?.isWritten() ?? true;
  }

  /**
   * Renders the content. A user error ({@link ClusterTlsError}) from the content's `render` goes
   * through as it is; any other error is a fault in that `render`, and comes back naming this
   * construct and its file, with the original as its `cause`.
   */
  public render(): string {
    if (typeof this.content === 'string') {
      return this.content;
    }
    let text: string;
    try {
      text = this.content.render();
    } catch (e) {
      if (e instanceof ClusterTlsError) {
        throw e;
      }
      throw new Error(`${this.node.path}: the content of ${this.path} failed to render: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    // Rendered at synth, the content meets the bound a string given at creation met then.
    return checkRendered(this, 'content', text, OUTPUT_FILE_SHAPE.content);

  }
}
