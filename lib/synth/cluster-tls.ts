/**
 * The library's entry points as static methods of one class, the form jsii gives every language:
 * Python, Java and Go see no free functions.
 */
import { App } from 'cdk8s';
import { RenderedApp, SynthesisResult, SynthesisTarget, SynthesizeOptions, renderApp, synthesize, synthesizeAll } from './synthesize';

/**
 * Synthesis of an app holding the library's constructs, in every language: `app.synth()` does
 * what {@link ClusterTls.synthesize} does with its defaults.
 */
export class ClusterTls {
  /**
   * Renders the app and writes its output folder and the files folder beside it, checked against
   * the record of the last synth; nothing is written when a check fails (see {@link synthesize}).
   * A refusal is thrown with its one-line message: a `ClusterTlsError` in TypeScript, the
   * language's jsii error in Python, Java and Go.
   */
  public static synthesize(app: App, options: SynthesizeOptions = {}): SynthesisResult {
    return synthesize(app, options);
  }

  /**
   * Synthesizes several apps checked together, each into its own output folder with its own record
   * (see {@link synthesizeAll}): the outputs of a cluster across Kubernetes clusters, one per
   * Kubernetes cluster. Nothing is written when a check of any of them fails.
   */
  public static synthesizeAll(targets: SynthesisTarget[]): SynthesisResult[] {
    return synthesizeAll(targets);
  }

  /** Renders the app into memory, writing nothing (see {@link renderApp}): for tests of an app. */
  public static render(app: App): RenderedApp {
    return renderApp(app);
  }

  private constructor() {}
}
