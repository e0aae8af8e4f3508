/**
 * The `ExpiryWatch` construct: the expiry alerts of a cluster's certificates, as a
 * prometheus-operator `PrometheusRule`, as a rules ConfigMap the operator's `DatabaseMonitor` mounts,
 * and, for the Secrets cert-manager does not manage, the values and the install step of the exporter
 * that reads them.
 */
import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { PrometheusRule, PrometheusRuleSpec, PrometheusRuleSpecGroupsRulesExpr } from '../../imports/prometheusrules-monitoring.coreos.com';
import { ExpiryRulesInput, RuleGroup, expiryRuleGroup, exporterValues } from '../documents/expiry-rules';
import type { RunbookStep } from '../documents/runbook';
import { DurationValue, durationSpec, durationText, parseDuration } from '../model/duration';
import { inputError, inputErrorMessage } from '../model/errors';
import {
  CertificateTrust, EXPIRY_DEFAULTS, ExternalTlsSecret, EXPIRY_EXPORTER, EXPORTED_KEYS, ManagedCertificate, MINIMUM_EXPIRY_THRESHOLD, WatchedCertificate,
} from '../model/expiry';
import * as names from '../model/names';
import * as layout from '../model/output-layout';
import { ShapeOf, checkProps, constructOf, declareShape, flag, withRules } from '../model/props';
import { DNS_LABEL_MAX, HELM_RELEASE_MAX } from '../model/limits';
import { OutputFile } from '../app/output-file';
import { oncePerPass } from '../app/app-objects';
import { stringifyYaml } from '../yaml/emitter';
import type { TlsPlan } from '../plan/certificate-options';

/** Settings of an {@link ExpiryWatch}, as `ClusterCertificates.watchExpiry()` takes them. */
export interface ExpiryWatchOptions {
  /**
   * How long before it expires a server or client certificate alerts; at least 1h, and shorter
   * than `duration`. With cert-manager, which renews a certificate `renewBefore` ahead, the alert
   * waits for that time and then gives the renewal an hour: a working issuer never raises it.
   * @default '504h' (21 days)
   */
  readonly leafThreshold?: DurationValue;
  /**
   * How long before it expires the CA alerts; at least 1h, and shorter than `caDuration` (with
   * cert-manager, at most its `caRenewBefore`, as for leaves).
   * @default '1440h' (60 days: the default renewal window of the CA, and 30 days to plan)
   */
  readonly caThreshold?: DurationValue;
  /**
   * Labels on every alert, for routing (a team, a pager).
   * @default - the library's own only: `tls_cluster`, `tls_cluster_namespace`, `namespace`, `secret`, `certificate` (`ca` or `leaf`), `severity`, and `source` on the missing-series alert
   */
  readonly alertLabels?: { readonly [key: string]: string };
  /**
   * Labels on the `PrometheusRule` object and on the exporter's ServiceMonitor, for the
   * `ruleSelector` and `serviceMonitorSelector` of the Prometheus that should load them.
   * @default - none
   */
  readonly ruleLabels?: { readonly [key: string]: string };
  /**
   * Whether to write the `PrometheusRule` (and the exporter's ServiceMonitor). Without
   * prometheus-operator in the cluster their CRDs are missing and `kubectl apply` of the manifest
   * fails on them: leave them out when only the operator's monitor loads the rules
   * (`addMonitor({ expiryWatch })`; without it, the synth refuses a watch nothing loads).
   * @default true
   */
  readonly prometheusRule?: boolean;
}

/** The certificates an {@link ExpiryWatch} watches: a `ClusterCertificates`. */
export interface IWatchedCertificates extends IConstruct {
  /** The cluster name. */
  readonly clusterName: string;
  /** The namespace of the cluster and of its certificates. */
  readonly namespace: string;
  /**
   * The certificate plan, complete at synth.
   * @jsii ignore
   */
  plan(): TlsPlan;
  /**
   * The Certificates cert-manager issues and renews, complete at synth.
   * @jsii ignore
   */
  managedCertificates(): ManagedCertificate[];
  /**
   * The TLS Secrets the user creates that the cluster loads, complete at synth.
   * @jsii ignore
   */
  externalTlsSecrets(): ExternalTlsSecret[];
}

/** Props of {@link ExpiryWatch}. */
export interface ExpiryWatchProps extends ExpiryWatchOptions {
  /** The certificates to watch. */
  readonly certificates: IWatchedCertificates;
}

/**
 * The shape of {@link ExpiryWatchOptions}.
 * @internal
 */
export const EXPIRY_WATCH_OPTIONS_SHAPE = declareShape('ClusterCertificates.watchExpiry', {
  leafThreshold: durationSpec(), caThreshold: durationSpec(), alertLabels: 'object?', ruleLabels: 'object?', prometheusRule: 'boolean?',
} satisfies ShapeOf<ExpiryWatchOptions>);

/**
 * The props of a watch: the thresholds Go durations (the catalog's when left out), the alert labels
 * Prometheus labels the library does not set, the rule labels Kubernetes labels, which need the
 * `PrometheusRule` they label. The options alone (`watchExpiry`) are checked by type; their rules
 * and defaults are the watch's. The thresholds' bounds read the certificates' plan, in the constructor.
 */
const EXPIRY_WATCH_SHAPE = declareShape('ExpiryWatch', withRules({
  ...EXPIRY_WATCH_OPTIONS_SHAPE,
  leafThreshold: { ...durationSpec(), rule: 'goDuration', default: EXPIRY_DEFAULTS.leafThreshold },
  caThreshold: { ...durationSpec(), rule: 'goDuration', default: EXPIRY_DEFAULTS.caThreshold },
  alertLabels: { type: 'object', optional: true, data: true, rule: 'alertLabels', default: {} },
  // No default: rule labels given without a PrometheusRule are refused (ruleLabelsNeedRule).
  ruleLabels: { type: 'object', optional: true, data: true, rule: 'kubernetesLabels' },
  prometheusRule: flag(true),
  certificates: constructOf((c) => Construct.isConstruct(c) && typeof (c as Partial<IWatchedCertificates>).plan === 'function', 'a ClusterCertificates'),
} satisfies ShapeOf<ExpiryWatchProps>, [ruleLabelsNeedRule]));

/** Refuses rule labels with `prometheusRule` false: they label the `PrometheusRule`. */
function ruleLabelsNeedRule(scope: IConstruct | string, props: ExpiryWatchProps): void {
  if (props.prometheusRule === false && props.ruleLabels !== undefined) {
    inputError(scope, 'ruleLabels', props.ruleLabels, 'no rule labels with prometheusRule false: they label the PrometheusRule');
  }
}

/** What an {@link ExpiryWatch} keeps for a synth's pass: its rule group, and the certificates the exporter watches. */
const RULE_GROUP = Symbol('rule group');
const BY_EXPORTER = Symbol('watched by the exporter');

/**
 * Alerts, for every certificate of a cluster's plan, before it expires, when cert-manager holds it
 * not Ready, when the Prometheus that loads the rules has no series for it, and (cert-manager) when
 * a leaf still holds a CA certificate a renewal replaced. cert-manager's Certificates are watched
 * through cert-manager's metrics; every other Secret of the plan (cfssl, user-provided, a CA
 * replacement's scripted phases) through x509-certificate-exporter, whose values file this writes
 * and whose install the cluster's runbooks hold.
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
    const checked = checkProps(this, props, EXPIRY_WATCH_SHAPE);
    const plan = checked.certificates.plan();
    this.thresholds = {
      leaf: requireThreshold(this, 'leafThreshold', durationText(checked.leafThreshold), { field: 'duration', value: plan.duration }),
      // An issuer's CA is the user's, of a lifetime the plan does not know: the threshold is held to none.
      ca: requireThreshold(this, 'caThreshold', durationText(checked.caThreshold), plan.ca && { field: 'caDuration', value: plan.ca.duration }),
    };
    this.alertLabels = { ...checked.alertLabels };
    const ruleLabels = { ...checked.ruleLabels };
    const { clusterName, namespace } = checked.certificates;
    this.clusterName = clusterName;
    this.namespace = namespace;
    this.certificates = checked.certificates;
    this.ruleGroupName = names.expiryRuleGroupName(namespace, clusterName);
    if (checked.prometheusRule) {
      this.resource = new PrometheusRule(this, 'Resource', {
        metadata: { name: names.expiryRuleName(clusterName), namespace, labels: Object.keys(ruleLabels).length > 0 ? ruleLabels : undefined },
        spec: Lazy.any({ produce: () => ruleSpec(this.ruleGroup()) }) as PrometheusRuleSpec,
      });
    }
    new OutputFile(this, 'ExporterValues', {
      path: layout.expiryExporterValuesPath(namespace, clusterName),
      content: { render: () => stringifyYaml(exporterValues({
        namespaces: [...new Set([namespace, ...this.byExporter().map((c) => c.namespace)])],
        fullname: names.expiryExporterFullname(namespace, clusterName), secretNames: [...new Set(this.byExporter().map((c) => c.secretName))],
        serviceMonitor: this.resource ? { labels: ruleLabels } : undefined,
      })) },
      when: { isWritten: () => this.byExporter().length > 0 },
    });
    this.node.addValidation({ validate: () => this.validate() });
  }

  /**
   * The rule group, for the certificates of the plan as it stands at synth.
   * @jsii ignore
   */
  public ruleGroup(): RuleGroup {
    // Read by the PrometheusRule and by the rules ConfigMap: made once per synth.
    return oncePerPass(this, RULE_GROUP, () => expiryRuleGroup({ ...this.baseInput(), certificates: [...this.byCertManager(), ...this.byExporter()] }));
  }

  /**
   * Adds the ConfigMap that holds the rules as a `.rules.yml` file, for a Prometheus that reads rule
   * files (the operator's `DatabaseMonitor`, through `spec.prometheus.config.ruleConfigRef`). Adding
   * it again does nothing.
   * @returns its name
   */
  public addRulesConfigMap(): string {
    const name = names.expiryRulesConfigMapName(this.clusterName);
    if (!this.configMap) {
      this.configMap = new ApiObject(this, 'RulesConfigMap', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: this.namespace },
        // Unfolded lines: each rule reads whole, in the ConfigMap and in the mounted file.
        data: Lazy.any({ produce: () => ({ [names.expiryRulesFileName(this.clusterName)]: stringifyYaml({ groups: [this.ruleGroup()] }, { lineWidth: 0 }) }) }),
      });
    }
    return name;
  }

  /**
   * The runbook step that installs the exporter, when a Secret of the plan is read by it; none
   * when cert-manager manages every certificate. Called at synth.
   * @jsii ignore
   */
  public runbookSteps(): RunbookStep[] {
    const exported = this.byExporter();
    if (exported.length === 0) {
      return [];
    }
    const external = [...new Set(exported.filter((c) => c.trust === 'external').map((c) => c.secretName))];
    const listed = external.map((n) => `\`${n}\``).join(', ');
    const ownExported = exported.some((c) => c.trust !== 'external');
    const release = names.expiryExporterRelease(this.clusterName);
    return [{
      title: 'Watch the expiry of the certificates',
      text: [
        `${ownExported ? `Nothing renews these certificates on their own. x509-certificate-exporter reads the tls.crt and ca.crt of these Secrets of cluster ${this.clusterName}${
          external.length > 0 ? `, and of the Secrets you create that it loads (${listed})` : ''}` : `x509-certificate-exporter reads the tls.crt and ca.crt of the Secrets you create that cluster ${this.clusterName} loads (${listed})`}, `
        + `and the expiry rules in ${layout.manifestFileName(Chart.of(this))} alert on them. Install it, or upgrade it to these values:`,
      ],
      commands: [
        `helm upgrade --install ${release} ${EXPIRY_EXPORTER.chart} --version ${EXPIRY_EXPORTER.version} `
        + `--namespace ${this.namespace} -f ${layout.fromOutputFolder(layout.expiryExporterValuesPath(this.namespace, this.clusterName))}`,
      ],
    }];
  }

  /** What only the whole app shows: whether anything loads the rules, and whether the exporter's release name fits. */
  private validate(): string[] {
    const errors: string[] = [];
    if (!this.resource && !this.configMap) {
      errors.push(inputErrorMessage(this, 'prometheusRule', false,
        'true, or the watch handed to addMonitor({ expiryWatch }): without either, no Prometheus loads its rules'));
    }
    if (this.byExporter().length > 0) {
      const release = names.expiryExporterRelease(this.clusterName);
      const fullname = names.expiryExporterFullname(this.namespace, this.clusterName);
      if (release.length > HELM_RELEASE_MAX) {
        errors.push(inputErrorMessage(this, 'certificates.clusterName', this.clusterName, `at most ${HELM_RELEASE_MAX - release.length + this.clusterName.length} characters `
          + `when x509-certificate-exporter watches its Secrets: its Helm release "${release}" must be at most ${HELM_RELEASE_MAX}`));
      } else if (fullname.length > DNS_LABEL_MAX) {
        errors.push(inputErrorMessage(this, 'certificates.namespace', this.namespace, `a namespace and cluster name of at most ${DNS_LABEL_MAX - fullname.length + this.namespace.length + this.clusterName.length} `
          + `characters together when x509-certificate-exporter watches the Secrets: its objects' name "${fullname}" must be at most ${DNS_LABEL_MAX}, or the chart cuts it`));
      }
    }
    return errors;
  }

  private baseInput(): Omit<ExpiryRulesInput, 'certificates'> {
    return {
      clusterName: this.clusterName, namespace: this.namespace, leafThresholdSeconds: this.thresholds.leaf, caThresholdSeconds: this.thresholds.ca,
      for: EXPIRY_DEFAULTS.for, notReadyFor: EXPIRY_DEFAULTS.notReadyFor, labels: this.alertLabels,
      rotationRunbook: layout.inFilesFolder(layout.rotationRunbookPath(this.namespace, this.clusterName)),
    };
  }

  /** cert-manager's Certificates, watched through its metrics. */
  private byCertManager(): WatchedCertificate[] {
    return this.certificates.managedCertificates().map((c) => ({ by: 'cert-manager', ...c }));
  }

  /**
   * The name of the exporter's objects that are not namespaced (its ClusterRole and
   * ClusterRoleBinding), when the exporter watches any Secret: one name in the whole cluster.
   * @internal
   */
  public _exporterFullname(): string | undefined {
    return this.byExporter().length > 0 ? names.expiryExporterFullname(this.namespace, this.clusterName) : undefined;
  }

  /**
   * The `tls.crt` and `ca.crt` of every Secret of the plan no Certificate writes, those of TLS for
   * MySQL clients included (each in its namespace), and of every TLS Secret the user creates that
   * the cluster loads, watched through the exporter.
   */
  private byExporter(): WatchedCertificate[] {
    // Read by the rules, the values file, the runbooks and the app's rules: listed once per synth.
    return oncePerPass(this, BY_EXPORTER, () => this.listByExporter());
  }

  /** The certificates of {@link byExporter}, listed afresh. */
  private listByExporter(): WatchedCertificate[] {
    const managed = new Set(this.certificates.managedCertificates().map((c) => `${c.namespace}/${c.secretName}`));
    const plan = this.certificates.plan();
    const planned: { name: string; namespace: string; trust: CertificateTrust; usedBy?: string }[] = [
      ...plan.secrets.map((s) => ({ name: s.name, namespace: plan.namespace, trust: 'cluster' as const })),
      ...(plan.sqlTls?.secrets ?? []).map((s) => ({ name: s.name, namespace: s.namespace, trust: 'sql' as const })),
    ];
    // A Secret a construct was handed that the library writes (the migration target given the
    // Secret of addSqlClient) is the plan's, watched once as such.
    const inPlan = new Set(planned.map((s) => `${s.namespace}/${s.name}`));
    const external = this.certificates.externalTlsSecrets().filter((s) => !inPlan.has(`${s.namespace}/${s.name}`));
    const secrets = [...planned, ...external.map((s) => ({ name: s.name, namespace: s.namespace, trust: 'external' as const, usedBy: s.usedBy }))];
    return secrets.filter((s) => !managed.has(`${s.namespace}/${s.name}`))
      .flatMap((s) => EXPORTED_KEYS.map(({ key, ca }) => ({
        by: 'exporter' as const, namespace: s.namespace, secretName: s.name, secretKey: key, ca, trust: s.trust, ...(s.usedBy === undefined ? {} : { usedBy: s.usedBy }),
      })));
  }
}

/**
 * A threshold, in seconds: at least {@link MINIMUM_EXPIRY_THRESHOLD}, and shorter than the validity
 * of the certificates it watches, which would alert from the moment they are issued.
 */
function requireThreshold(scope: IConstruct, field: string, value: string, validity: { readonly field: string; readonly value: string } | undefined): number {
  // A Go duration, by the props' shape.
  const ms = parseDuration(value)!;
  if (ms < parseDuration(MINIMUM_EXPIRY_THRESHOLD)!) {
    inputError(scope, field, value, `at least ${MINIMUM_EXPIRY_THRESHOLD}: an alert closer to expiry leaves no time to act`);
  }
  if (validity !== undefined && ms >= parseDuration(validity.value)!) {
    inputError(scope, field, value, `less than the certificates' ${validity.field} (${validity.value}): a longer one alerts from the moment a certificate is issued`);
  }
  return ms / 1000;
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
