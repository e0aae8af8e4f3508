// The reference app of main.ts, in Go: the same deployment, synthesized twice, once per issuing
// method, into dist/ and cluster-tls/ beside it, with the record cluster-tls.lock.json.
//
// Build and run it from the folder that is to hold dist/, as README says:
// go build -o reference-app . && ./reference-app
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-cluster-tls/cdk8s-cluster-tls-go/clustertls"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

// Where the operator's images come from; the operator appends each cluster's version as the tag.
const registry = "registry.example.com/db"

// addDeployment declares the database cluster "basic" with its monitor, drainer, backup and
// restore, and the migration cluster "basic" that copies an upstream MySQL database into it.
func addDeployment(app cdk8s.App, namespace string, method clustertls.IssuingMethod) {
	chart := cdk8s.NewChart(app, jsii.String(namespace), &cdk8s.ChartProps{Namespace: jsii.String(namespace)})

	certs := clustertls.NewClusterCertificates(chart, jsii.String("basic-certificates"), &clustertls.ClusterCertificatesProps{
		ClusterName: jsii.String("basic"),
		Method:      method,
		Subject: &clustertls.CertificateSubject{
			Organization: jsii.String("demo"), OrganizationalUnit: jsii.String("databases"), Country: jsii.String("US"),
			State: jsii.String("California"), Locality: jsii.String("San Francisco"),
		},
		Rotations: &[]*clustertls.CertificateRotation{},
	})

	database := clustertls.NewTlsDatabaseCluster(chart, jsii.String("basic-database"), &clustertls.TlsDatabaseClusterProps{
		ClusterName:     jsii.String("basic"),
		Version:         jsii.String("v4.0.5"),
		OperatorVersion: jsii.String("v1.2.0"),
		Certificates:    certs,
		Coordinator:     &clustertls.CoordinatorProps{BaseImage: jsii.String(registry + "/coordinator"), Storage: jsii.String("10Gi")},
		Store:           &clustertls.StoreProps{BaseImage: jsii.String(registry + "/store"), Storage: jsii.String("100Gi")},
		Sqlserver:       &clustertls.SqlServerProps{BaseImage: jsii.String(registry + "/sqlserver")},
		Pump:            &clustertls.PumpProps{BaseImage: jsii.String(registry + "/pump"), Storage: jsii.String("20Gi")},
		// The changefeed writes to a downstream database over TLS with that database's client certificate.
		Changefeed: &clustertls.ChangefeedProps{BaseImage: jsii.String(registry + "/changefeed"), SinkTlsSecretNames: &[]interface{}{jsii.String("basic-sink-tls")}},
		Columnar:   &clustertls.ColumnarProps{BaseImage: jsii.String(registry + "/columnar"), StorageClaims: &[]*clustertls.StorageClaim{{Storage: jsii.String("100Gi")}}},
		// Applications reach the SQL server over TLS, each with a client certificate of its own.
		TlsClient: &clustertls.SqlTlsOptions{},
	})
	// Alerts before any certificate of the plan expires, in a PrometheusRule and in the monitor.
	expiry := certs.WatchExpiry(nil)
	database.AddMonitor(&clustertls.DatabaseMonitorOptions{
		Initializer: &clustertls.MonitorImage{BaseImage: jsii.String(registry + "/monitor-initializer"), Version: jsii.String("v4.0.5")},
		Reloader:    &clustertls.MonitorImage{BaseImage: jsii.String(registry + "/monitor-reloader"), Version: jsii.String("v1.0.1")},
		ExpiryWatch: expiry,
	})

	addMigration(chart, certs, database)

	// The drainer, installed with its chart; its host names follow the release name.
	clustertls.NewDrainerRelease(chart, jsii.String("basic-drainer"), &clustertls.DrainerReleaseProps{
		Cluster:     database,
		ReleaseName: jsii.String("binlog"),
		Chart:       &clustertls.DrainerChart{Repository: jsii.String("https://charts.example.com/stable"), Version: jsii.String("1.1.5")},
	})

	// A backup and a restore: one-off operations, written to cluster-tls/, never to dist/.
	storage := func(backup *clustertls.BackupOptions, restore *clustertls.RestoreOptions) *clustertls.BackupRestoreProps {
		return &clustertls.BackupRestoreProps{
			Cluster: database, Backup: backup, Restore: restore,
			S3: &clustertls.S3Storage{
				Provider: jsii.String("aws"), Region: jsii.String("us-west-2"), Bucket: jsii.String("basic-backups"),
				SecretName: jsii.String("basic-s3-credentials"),
			},
			CredentialsSecretName: jsii.String("basic-backup-credentials"),
			User:                  jsii.String("backup"),
		}
	}
	clustertls.NewBackupRestore(chart, jsii.String("basic-backup"), storage(&clustertls.BackupOptions{}, nil))
	clustertls.NewBackupRestore(chart, jsii.String("basic-restore"), storage(nil, &clustertls.RestoreOptions{}))
}

// addMigration declares the migration cluster "basic", copying one upstream MySQL source into the database cluster.
func addMigration(chart cdk8s.Chart, certs clustertls.ClusterCertificates, database clustertls.TlsDatabaseCluster) {
	clustertls.NewTlsMigrationCluster(chart, jsii.String("basic-migration"), &clustertls.TlsMigrationClusterProps{
		ClusterName:     jsii.String("basic"),
		Version:         jsii.String("v2.0.7"),
		OperatorVersion: jsii.String("v1.2.0"),
		Certificates:    certs,
		Master:          &clustertls.MigrationMemberProps{BaseImage: jsii.String(registry + "/migration")},
		Worker:          &clustertls.MigrationWorkerProps{BaseImage: jsii.String(registry + "/migration")},
		Sources: &[]*clustertls.MigrationSource{{
			SourceId: jsii.String("source1"), Host: jsii.String("mysql.example.com"), Port: jsii.Number(3306), User: jsii.String("root"),
			TlsSecretName: jsii.String("basic-source1-tls"),
		}},
		// The migration writes to the SQL server with a client certificate of its own.
		Target: &clustertls.MigrationTarget{
			Database: database, User: jsii.String("basic-migration"),
			TlsSecretName: database.AddSqlClient(jsii.String("basic-migration"), nil).SecretName,
		},
		Task: &clustertls.MigrationTaskProps{Name: jsii.String("basic-migration")},
	})
}

// synth builds and synthesizes the app; a refusal of the library arrives as a panic holding its
// one-line message, returned here as an error.
func synth() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	app := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String("dist")})
	addDeployment(app, "demo", clustertls.IssuingMethod_CERT_MANAGER)
	addDeployment(app, "demo-cfssl", clustertls.IssuingMethod_CFSSL)
	app.Synth()
	return nil
}

func main() {
	defer jsii.Close()
	if err := synth(); err != nil {
		// Printed as the library's own commands print a refusal: its line, without a stack trace.
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(os.Stderr, "error: %s\n", line)
		}
		jsii.Close()
		os.Exit(1)
	}
}
