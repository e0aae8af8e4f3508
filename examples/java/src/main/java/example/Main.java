package example;

import io.github.cdk8s_cluster_tls.BackupOptions;
import io.github.cdk8s_cluster_tls.BackupRestore;
import io.github.cdk8s_cluster_tls.BackupRestoreProps;
import io.github.cdk8s_cluster_tls.CertificateSubject;
import io.github.cdk8s_cluster_tls.ChangefeedProps;
import io.github.cdk8s_cluster_tls.ClusterCertificates;
import io.github.cdk8s_cluster_tls.ColumnarProps;
import io.github.cdk8s_cluster_tls.CoordinatorProps;
import io.github.cdk8s_cluster_tls.DatabaseMonitorOptions;
import io.github.cdk8s_cluster_tls.DrainerChart;
import io.github.cdk8s_cluster_tls.DrainerRelease;
import io.github.cdk8s_cluster_tls.ExpiryWatch;
import io.github.cdk8s_cluster_tls.IssuingMethod;
import io.github.cdk8s_cluster_tls.MigrationMemberProps;
import io.github.cdk8s_cluster_tls.MigrationSource;
import io.github.cdk8s_cluster_tls.MigrationTarget;
import io.github.cdk8s_cluster_tls.MigrationTaskProps;
import io.github.cdk8s_cluster_tls.MigrationWorkerProps;
import io.github.cdk8s_cluster_tls.MonitorImage;
import io.github.cdk8s_cluster_tls.PumpProps;
import io.github.cdk8s_cluster_tls.RestoreOptions;
import io.github.cdk8s_cluster_tls.S3Storage;
import io.github.cdk8s_cluster_tls.SqlServerProps;
import io.github.cdk8s_cluster_tls.SqlTlsOptions;
import io.github.cdk8s_cluster_tls.StorageClaim;
import io.github.cdk8s_cluster_tls.StoreProps;
import io.github.cdk8s_cluster_tls.TlsDatabaseCluster;
import io.github.cdk8s_cluster_tls.TlsMigrationCluster;
import java.util.List;
import org.cdk8s.App;
import org.cdk8s.AppProps;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;

/**
 * The reference app of main.ts, in Java: the same deployment, synthesized twice, once per issuing
 * method, into dist/ and cluster-tls/ beside it, with the record cluster-tls.lock.json.
 */
public final class Main {
    /** Where the operator's images come from; the operator appends each cluster's version as the tag. */
    private static final String REGISTRY = "registry.example.com/db";

    private Main() {
    }

    /**
     * The database cluster "basic" with its monitor, drainer, backup and restore, and the migration
     * cluster "basic" that copies an upstream MySQL database into it.
     */
    static void addDeployment(final App app, final String namespace, final IssuingMethod method) {
        Chart chart = new Chart(app, namespace, ChartProps.builder().namespace(namespace).build());

        ClusterCertificates certs = ClusterCertificates.Builder.create(chart, "basic-certificates")
            .clusterName("basic")
            .method(method)
            .subject(CertificateSubject.builder().organization("demo").organizationalUnit("databases").country("US")
                .state("California").locality("San Francisco").build())
            .rotations(List.of())
            .build();

        TlsDatabaseCluster database = TlsDatabaseCluster.Builder.create(chart, "basic-database")
            .clusterName("basic")
            .version("v4.0.5")
            .operatorVersion("v1.2.0")
            .certificates(certs)
            .coordinator(CoordinatorProps.builder().baseImage(REGISTRY + "/coordinator").storage("10Gi").build())
            .store(StoreProps.builder().baseImage(REGISTRY + "/store").storage("100Gi").build())
            .sqlserver(SqlServerProps.builder().baseImage(REGISTRY + "/sqlserver").build())
            .pump(PumpProps.builder().baseImage(REGISTRY + "/pump").storage("20Gi").build())
            // The changefeed writes to a downstream database over TLS with that database's client certificate.
            .changefeed(ChangefeedProps.builder().baseImage(REGISTRY + "/changefeed").sinkTlsSecretNames(List.of("basic-sink-tls")).build())
            .columnar(ColumnarProps.builder().baseImage(REGISTRY + "/columnar")
                .storageClaims(List.of(StorageClaim.builder().storage("100Gi").build())).build())
            // Applications reach the SQL server over TLS, each with a client certificate of its own.
            .tlsClient(SqlTlsOptions.builder().build())
            .build();
        // Alerts before any certificate of the plan expires, in a PrometheusRule and in the monitor.
        ExpiryWatch expiry = certs.watchExpiry();
        database.addMonitor(DatabaseMonitorOptions.builder()
            .initializer(MonitorImage.builder().baseImage(REGISTRY + "/monitor-initializer").version("v4.0.5").build())
            .reloader(MonitorImage.builder().baseImage(REGISTRY + "/monitor-reloader").version("v1.0.1").build())
            .expiryWatch(expiry)
            .build());

        addMigration(chart, certs, database);

        // The drainer, installed with its chart; its host names follow the release name.
        DrainerRelease.Builder.create(chart, "basic-drainer")
            .cluster(database)
            .releaseName("binlog")
            .chart(DrainerChart.builder().repository("https://charts.example.com/stable").version("1.1.5").build())
            .build();

        // A backup and a restore: one-off operations, written to cluster-tls/, never to dist/.
        new BackupRestore(chart, "basic-backup", storage(database).backup(BackupOptions.builder().build()).build());
        new BackupRestore(chart, "basic-restore", storage(database).restore(RestoreOptions.builder().build()).build());
    }

    /** Where backups go, and the credentials they are made with. */
    static BackupRestoreProps.Builder storage(final TlsDatabaseCluster database) {
        return BackupRestoreProps.builder()
            .cluster(database)
            .s3(S3Storage.builder().provider("aws").region("us-west-2").bucket("basic-backups").secretName("basic-s3-credentials").build())
            .credentialsSecretName("basic-backup-credentials")
            .user("backup");
    }

    /** The migration cluster "basic", copying one upstream MySQL source into the database cluster. */
    static void addMigration(final Chart chart, final ClusterCertificates certs, final TlsDatabaseCluster database) {
        TlsMigrationCluster.Builder.create(chart, "basic-migration")
            .clusterName("basic")
            .version("v2.0.7")
            .operatorVersion("v1.2.0")
            .certificates(certs)
            .master(MigrationMemberProps.builder().baseImage(REGISTRY + "/migration").build())
            .worker(MigrationWorkerProps.builder().baseImage(REGISTRY + "/migration").build())
            .sources(List.of(MigrationSource.builder().sourceId("source1").host("mysql.example.com").port(3306).user("root")
                .tlsSecretName("basic-source1-tls").build()))
            // The migration writes to the SQL server with a client certificate of its own.
            .target(MigrationTarget.builder().database(database).user("basic-migration")
                .tlsSecretName(database.addSqlClient("basic-migration").getSecretName()).build())
            .task(MigrationTaskProps.builder().name("basic-migration").build())
            .build();
    }

    public static void main(final String[] args) {
        try {
            App app = new App(AppProps.builder().outdir("dist").build());
            addDeployment(app, "demo", IssuingMethod.CERT_MANAGER);
            addDeployment(app, "demo-cfssl", IssuingMethod.CFSSL);
            app.synth();
        } catch (RuntimeException e) {
            // A refusal arrives as a RuntimeException (a JsiiError from a constructor) holding its
            // one-line message: print it as the library's own commands do, without a stack trace.
            for (String line : e.getMessage().split("\n")) {
                System.err.println("error: " + line);
            }
            System.exit(1);
        }
    }
}
