/**
 * The `ExpiryWatch` construct: the expiry alerts of a cluster's certificates, as a
 * prometheus-operator `PrometheusRule`, as a rules ConfigMap the operator's `DatabaseMonitor` mounts,
 * and, for the Secrets cert-manager does not manage, the values and the install step of the exporter
 * that reads them.
 */
import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Certificate } from '../../imports/certificates-cert-manager.io';
import { PrometheusRule, PrometheusRuleSpec, PrometheusRuleSpecGroupsRulesExpr } from '../../imports/prometheusrules-monitoring.coreos.com';
import { ExpiryRulesInput, RuleGroup, expiryRuleGroup, exporterValues } from '../documents/expiry-rules';
import type { RunbookStep } from '../documents/runbook';
import { parseDuration } from '../model/duration';
import { inputError } from '../model/errors';
import { EXPIRY_DEFAULTS, EXPIRY_EXPORTER, EXPORTED_KEYS, WatchedCertificate } from '../model/expiry';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { ShapeOf, checkProps, constructOf } from '../model/props';
import { requireDuration, requireKubernetesLabels, requirePrometheusLabels } from '../model/validate';
import { OutputFile } from '../synth/output-file';
import { stringifyYaml } from '../yaml/emitter';
import type { TlsPlan } from './certificate-options';

/** Settings of an {@link ExpiryWatch}, as `ClusterCertificates.watchExpiry()` takes them. */
export interface ExpiryWatchOptions {
  /**
   * How long before it expires a server or client certificate alerts. With cert-manager, which
   * renews a certificate `renewBefore` ahead, the alert waits for that time and then gives the
   * renewal an hour: a working issuer never raises it.
   * @default '504h' (21 days)
   */
  readonly leafThreshold?: string;
  /**
   * How long before it expires the CA alerts (with cert-manager, at most its `caRenewBefore`, as
   * for leaves).
   * @default '1440h' (60 days: the default renewal window of the CA, and 30 days to plan)
   */
  readonly caThreshold?: string;
  /**
   * Labels on every alert, for routing (a team, a pager).
   * @default - `tls_cluster`, `secret`, `certificate` (`ca` or `leaf`) and `severity` only
   */
  readonly alertLabels?: { readonly [key: string]: string };
  /**
   * Labels on the `PrometheusRule` object, for the `ruleSelector` of the Prometheus that should load it.
   * @default - none
   */
  readonly ruleLabels?: { readonly [key: string]: string };
  /**
   * Whether to write the `PrometheusRule`. Without prometheus-operator in the cluster its CRD is
   * missing and `kubectl apply` of the manifest fails on it: leave it out when only the operator's
   * monitor loads the rules (`addMonitor({ expiryWatch })`).
   * @default true
   */
  readonly prometheusRule?: boolean;
}

/** The certificates an {@link ExpiryWatch} watches: a `ClusterCertificates`. */
export interface IWatchedCertificates extends IConstruct {
  readonly clusterName: string;
  readonly namespace: string;
  /** The certificate plan, complete at synth. */
  plan(): TlsPlan;
}

/** Props of {@link ExpiryWatch}. */
export interface ExpiryWatchProps extends ExpiryWatchOptions {
  /** The certificates to watch. */
  readonly certificates: IWatchedCertificates;
}

/** The labels the library sets on every alert. */
const ALERT_LABELS = ['tls_cluster', 'secret', 'certificate', 'severity'];

const EXPIRY_WATCH_SHAPE = {
  leafThreshold: 'string?', caThreshold: 'string?', alertLabels: 'object?', ruleLabels: 'object?', prometheusRule: 'boolean?',
  certificates: constructOf((c) => Construct.isConstruct(c) && typeof (c as Partial<IWatchedCertificates>).plan === 'function', 'a ClusterCertificates'),
} satisfies ShapeOf<ExpiryWatchProps>;

/**
 * Alerts, for every certificate of a cluster's plan, before it expires, when cert-manager holds it
 * not Ready, and when the Prometheus that loads the rules has no series for it. cert-manager's
 * Certificates are watched through cert-manager's metrics; every other Secret of the plan (cfssl,
 * user-provided, a CA replacement's scripted phases) through x509-certificate-exporter, whose
 * values file this writes and whose install the cluster's runbook holds.
 */
export class ExpiryWatch extends Construct {
  /** The cluster whose certificates are watched. */
  public readonly clusterName: string;
  /** The namespace of the certificates, of the `PrometheusRule` and of the rules ConfigMap. */
  public readonly namespace: string;
  /** The name of the rule group, the same in the `PrometheusRule` and in the rules ConfigMap. */
  public readonly ruleGroupName: string;
  /** The `PrometheusRule` object, unless `prometheusRule` is false. */
  public readonly resource?: ApiObject;
  private readonly certificates: IWatchedCertificates;
  private readonly thresholds: { readonly leaf: number; readonly ca: number };
  private readonly alertLabels: { readonly [key: string]: string };
  private configMap?: ApiObject;

  constructor(scope: Construct, id: string, props: ExpiryWatchProps) {
    super(scope, id);
    checkProps(this, props, EXPIRY_WATCH_SHAPE);
    this.thresholds = {
      leaf: requireDuration(this, 'leafThreshold', props.leafThreshold ?? EXPIRY_DEFAULTS.leafThreshold) / 1000,
      ca: requireDuration(this, 'caThreshold', props.caThreshold ?? EXPIRY_DEFAULTS.caThreshold) / 1000,
    };
    for (const [field, seconds] of Object.entries(this.thresholds)) {
      if (seconds < 3600) {
        inputError(this, `${field}Threshold`, props[`${field}Threshold` as 'leafThreshold'], 'at least 1h: an alert closer to expiry leaves no time to act');
      }
    }
    this.alertLabels = requirePrometheusLabels(this, 'alertLabels', props.alertLabels ?? {}, ALERT_LABELS);
    const ruleLabels = requireKubernetesLabels(this, 'ruleLabels', props.ruleLabels ?? {});
    const { clusterName, namespace } = props.certificates;
    this.clusterName = clusterName;
    this.namespace = namespace;
    this.certificates = props.certificates;
    this.ruleGroupName = names.expiryRuleGroupName(namespace, clusterName);
    if (props.prometheusRule ?? true) {
      this.resource = new PrometheusRule(this, 'Resource', {
        metadata: { name: names.expiryRuleName(clusterName), namespace, labels: Object.keys(ruleLabels).length > 0 ? { ...ruleLabels } : undefined },
        spec: Lazy.any({ produce: () => ruleSpec(this.ruleGroup()) }) as PrometheusRuleSpec,
      });
    } else if (props.ruleLabels !== undefined) {
      inputError(this, 'ruleLabels', props.ruleLabels, 'no rule labels with prometheusRule false: they label the PrometheusRule');
    }
    new OutputFile(this, 'ExporterValues', {
      path: layout.expiryExporterValuesPath(namespace, clusterName),
      content: () => stringifyYaml(exporterValues(namespace, [...new Set(this.byExporter().map((c) => c.secretName))])),
      when: () => this.byExporter().length > 0,
    });
  }

  /** The rule group, for the certificates of the plan as it stands at synth. */
  public ruleGroup(): RuleGroup {
    return expiryRuleGroup({ ...this.baseInput(), certificates: this.watched() });
  }

  /**
   * The ConfigMap that holds the rules as a `.rules.yml` file, for a Prometheus that reads rule
   * files (the operator's `DatabaseMonitor`, through `spec.prometheus.config.ruleConfigRef`).
   * Made on first call.
   * @returns its name
   */
  public ruleConfigMap(): string {
    const name = names.expiryRulesConfigMapName(this.certificates.clusterName);
    if (!this.configMap) {
      this.configMap = new ApiObject(this, 'RulesConfigMap', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: this.certificates.namespace },
        // Unfolded lines: each rule reads whole, in the ConfigMap and in the mounted file.
        data: Lazy.any({ produce: () => ({ [names.expiryRulesFileName(this.certificates.clusterName)]: stringifyYaml({ groups: [this.ruleGroup()] }, { lineWidth: 0 }) }) }),
      });
    }
    return name;
  }

  /**
   * The runbook step that installs the exporter, when a Secret of the plan is read by it; none
   * when cert-manager manages every certificate. Called at synth.
   */
  public runbookSteps(): RunbookStep[] {
    if (this.byExporter().length === 0) {
      return [];
    }
    const { clusterName, namespace } = this.certificates;
    const release = names.expiryExporterRelease(clusterName);
    if (release.length > names.HELM_RELEASE_MAX) {
      inputError(this, 'certificates.clusterName', clusterName, `at most ${names.HELM_RELEASE_MAX - release.length + clusterName.length} characters `
        + `when x509-certificate-exporter watches its Secrets: its Helm release "${release}" must be at most ${names.HELM_RELEASE_MAX}`);
    }
    return [{
      title: 'Watch the expiry of the certificates',
      text: [
        `Nothing renews these certificates on their own. x509-certificate-exporter reads the tls.crt and ca.crt of these Secrets of cluster ${clusterName}, `
        + `and the expiry rules in ${layout.manifestFileName(Chart.of(this))} alert on them. Install it, or upgrade it to these values:`,
      ],
      commands: [
        `helm upgrade --install ${release} ${EXPIRY_EXPORTER.chart} --version ${EXPIRY_EXPORTER.version} `
        + `--namespace ${namespace} -f ${layout.expiryExporterValuesPath(namespace, clusterName)}`,
      ],
    }];
  }

  private baseInput(): Omit<ExpiryRulesInput, 'certificates'> {
    const { clusterName, namespace } = this.certificates;
    return {
      clusterName, namespace, leafThresholdSeconds: this.thresholds.leaf, caThresholdSeconds: this.thresholds.ca,
      for: EXPIRY_DEFAULTS.for, notReadyFor: EXPIRY_DEFAULTS.notReadyFor, labels: this.alertLabels,
      rotationRunbook: layout.rotationRunbookPath(namespace, clusterName),
    };
  }

  /** Every certificate of the plan: cert-manager's Certificates, then the Secrets no Certificate writes. */
  private watched(): WatchedCertificate[] {
    return [...this.byCertManager(), ...this.byExporter()];
  }

  private byCertManager(): WatchedCertificate[] {
    // By kind, not instanceof: every generated class answers instanceof for any ApiObject.
    return this.certificates.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c) && c.apiVersion === Certificate.GVK.apiVersion && c.kind === Certificate.GVK.kind).map((c) => {
      const { metadata, spec } = c.toJson();
      return {
        secretName: spec.secretName, ca: spec.isCA === true, certificateName: metadata.name,
        renewBeforeSeconds: parseDuration(spec.renewBefore)! / 1000, durationSeconds: parseDuration(spec.duration)! / 1000,
      };
    });
  }

  private byExporter(): WatchedCertificate[] {
    const managed = new Set(this.byCertManager().map((c) => c.secretName));
    return this.certificates.plan().secrets.filter((s) => !managed.has(s.name))
      .flatMap((s) => EXPORTED_KEYS.map(({ key, ca }) => ({ secretName: s.name, ca, secretKey: key })));
  }
}

/** A rule group as the `PrometheusRule` spec, in the generated types (their `toJson` writes it). */
function ruleSpec(group: RuleGroup): PrometheusRuleSpec {
  return {
    groups: [{
      name: group.name,
      rules: group.rules.map((r) => ({ ...r, expr: PrometheusRuleSpecGroupsRulesExpr.fromString(r.expr) })),
    }],
  };
}
