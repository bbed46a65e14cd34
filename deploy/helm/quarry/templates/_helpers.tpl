{{/* Names and labels, as `helm create` makes them. */}}
{{- define "quarry.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "quarry.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "quarry.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "name" "gateway"). */}}
{{- define "quarry.selectorLabels" -}}
app.kubernetes.io/name: {{ include "quarry.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Every label of one component's objects: (dict "root" $ "name" "gateway"). */}}
{{- define "quarry.labels" -}}
helm.sh/chart: {{ include "quarry.chart" .root }}
{{ include "quarry.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: quarry
{{- end -}}

{{/* Labels of objects that belong to no one component (ConfigMap, Secret). */}}
{{- define "quarry.commonLabels" -}}
helm.sh/chart: {{ include "quarry.chart" . }}
app.kubernetes.io/name: {{ include "quarry.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: quarry
{{- end -}}

{{- define "quarry.secretName" -}}
{{- default (include "quarry.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
The components: one Deployment each (repo-service is the StatefulSet of statefulset-repo.yaml).
  values:    the key of its settings in values.yaml (ci roles: under ci)
  image:     the SERVICE build argument of deploy/Dockerfile, the image's last path element
  grpc:      serves gRPC (grpc probes, METRICS_PORT); false = the gateway (HTTP)
  service:   gets a ClusterIP Service (ci-worker takes no calls)
  db:        its database (postgresql.databases.<db>, Secret key <db>-database-url)
  secretEnv: environment variables read from Secret keys
  optionalSecretEnv: the same, for keys an existingSecret may leave out
*/}}
{{- define "quarry.components" -}}
components:
  gateway:
    values: gateway
    image: gateway
    grpc: false
    service: true
    secretEnv: {}
    optionalSecretEnv: {}
  identity-service:
    values: identity
    image: identity-service
    grpc: true
    service: true
    db: identity
    secretEnv:
      QUARRY_IDENTITY_ENCRYPTION_KEY: identity-encryption-key
      MINIO_ACCESS_KEY: s3-access-key
      MINIO_SECRET_KEY: s3-secret-key
    optionalSecretEnv:
      QUARRY_ROOT_TOKEN: root-token
  ci-api:
    values: ci
    role: api
    image: ci-service
    grpc: true
    service: true
    db: ci
    secretEnv: &ciSecrets
      QUARRY_CI_ENCRYPTION_KEY: ci-encryption-key
      MINIO_ACCESS_KEY: s3-access-key
      MINIO_SECRET_KEY: s3-secret-key
    optionalSecretEnv: &ciOptional
      QUARRY_RUNNER_REGISTRATION_TOKEN: runner-registration-token
  ci-worker:
    values: ci
    role: worker
    image: ci-service
    grpc: true
    service: false
    db: ci
    secretEnv: *ciSecrets
    optionalSecretEnv: *ciOptional
  ci-artifacts:
    values: ci
    role: artifacts
    image: ci-service
    grpc: true
    service: true
    db: ci
    secretEnv: *ciSecrets
    optionalSecretEnv: *ciOptional
  hook-service:
    values: hook
    image: hook-service
    grpc: true
    service: true
    db: hook
    secretEnv:
      QUARRY_HOOK_ENCRYPTION_KEY: hook-encryption-key
    optionalSecretEnv:
      QUARRY_SMTP_URL: smtp-url
  mirror-service:
    values: mirror
    image: mirror-service
    grpc: true
    service: true
    db: mirror
    secretEnv:
      QUARRY_MIRROR_ENCRYPTION_KEY: mirror-encryption-key
    optionalSecretEnv: {}
  collab-service:
    values: collab
    image: collab-service
    grpc: true
    service: true
    db: collab
    secretEnv: {}
    optionalSecretEnv: {}
  error-tracking-service:
    values: errorTracking
    image: error-tracking-service
    grpc: true
    service: true
    db: errorTracking
    secretEnv: {}
    optionalSecretEnv: {}
  activity-service:
    values: activity
    image: activity-service
    grpc: true
    service: true
    db: activity
    secretEnv: {}
    optionalSecretEnv: {}
{{- end -}}

{{/* One component's settings: (dict "root" $ "c" $component). */}}
{{- define "quarry.componentValues" -}}
{{- $v := index .root.Values .c.values -}}
{{- if .c.role -}}{{- $v = index $v .c.role -}}{{- end -}}
{{- toYaml $v -}}
{{- end -}}

{{/* Image of a component: (dict "root" $ "v" $values "image" "gateway"). */}}
{{- define "quarry.image" -}}
{{- $img := .v.image | default dict -}}
{{- $repo := $img.repository | default (printf "%s/%s" .root.Values.image.repository .image) -}}
{{- $tag := $img.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repo $tag -}}
{{- end -}}

{{/* host:port of a component's Service: (dict "root" $ "name" "identity-service" "port" 50051). */}}
{{- define "quarry.address" -}}
{{- printf "%s-%s:%v" (include "quarry.fullname" .root) .name .port -}}
{{- end -}}

{{/* Database URL of one service's database: (dict "root" $ "db" "identity"). */}}
{{- define "quarry.databaseUrl" -}}
{{- $pg := .root.Values.postgresql -}}
{{- $auth := $pg.user | urlquery -}}
{{- if $pg.password -}}{{- $auth = printf "%s:%s" $auth ($pg.password | urlquery) -}}{{- end -}}
{{- $url := printf "postgresql://%s@%s:%v/%s" $auth $pg.host $pg.port (index $pg.databases .db) -}}
{{- if $pg.params -}}{{- $url = printf "%s?%s" $url $pg.params -}}{{- end -}}
{{- $url -}}
{{- end -}}

{{/* Env entries reading Secret keys: (dict "root" $ "env" $map "optional" bool). */}}
{{- define "quarry.secretEnv" -}}
{{- range $name, $key := .env }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "quarry.secretName" $.root }}
      key: {{ $key }}
      {{- if $.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/*
Pod annotations: Prometheus scraping (the gateway on its HTTP port, gRPC services on
METRICS_PORT), config checksums (a change of ConfigMap or Secret rolls the pods), then the user's.
(dict "root" $ "port" N)
*/}}
{{- define "quarry.podAnnotations" -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
checksum/config: {{ include (print .root.Template.BasePath "/configmap.yaml") .root | sha256sum }}
{{- if not .root.Values.secrets.existingSecret }}
checksum/secret: {{ include "quarry.secretChecksumInput" .root | sha256sum }}
{{- end }}
{{- with .root.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* What the Secret holds apart from generated keys (those would change the checksum on every render). */}}
{{- define "quarry.secretChecksumInput" -}}
{{- toYaml (list .Values.postgresql .Values.nats .Values.objectStorage .Values.secrets) -}}
{{- end -}}

{{/* Scheduling and security settings every pod shares. */}}
{{- define "quarry.podSpecCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* grpc probes of a gRPC service on its port: (dict "root" $ "port" N). */}}
{{- define "quarry.grpcProbes" -}}
{{- $p := .root.Values.grpcProbes -}}
startupProbe:
  grpc: { port: {{ .port }} }
  periodSeconds: {{ $p.startup.periodSeconds }}
  failureThreshold: {{ $p.startup.failureThreshold }}
livenessProbe:
  grpc: { port: {{ .port }} }
  periodSeconds: {{ $p.liveness.periodSeconds }}
  timeoutSeconds: {{ $p.liveness.timeoutSeconds }}
  failureThreshold: {{ $p.liveness.failureThreshold }}
readinessProbe:
  grpc: { port: {{ .port }} }
  periodSeconds: {{ $p.readiness.periodSeconds }}
  timeoutSeconds: {{ $p.readiness.timeoutSeconds }}
  failureThreshold: {{ $p.readiness.failureThreshold }}
{{- end -}}

{{/* Extra env of a component's values (a map NAME: value), sorted by name. */}}
{{- define "quarry.extraEnv" -}}
{{- range $k, $v := . }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end -}}
