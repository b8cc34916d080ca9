{{/* Names: every object is named from the release, so releases never collide in one namespace. */}}
{{- define "cloakgate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "cloakgate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "cloakgate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "cloakgate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selectors carry the instance: one release's Service and policy never select another release's pods. */}}
{{- define "cloakgate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cloakgate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "cloakgate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "cloakgate.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "cloakgate.tenantsConfigMap" -}}
{{- default (printf "%s-tenants" (include "cloakgate.fullname" .)) .Values.tenants.existingConfigMap }}
{{- end }}

{{- define "cloakgate.secretName" -}}
{{- default (include "cloakgate.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* The chart makes the Secret only from values it was given; an existing Secret is never overwritten. */}}
{{/* issue 15: the key, inside the Secret, of the previous ledger signing seed; empty when none is given */}}
{{- define "cloakgate.previousKeyName" -}}
{{- if .Values.secrets.previousLedgerSigningKeyName }}{{ .Values.secrets.previousLedgerSigningKeyName }}
{{- else if .Values.secrets.previousLedgerSigningKey }}previous-ledger-signing-key{{- end }}
{{- end }}

{{- define "cloakgate.createSecret" -}}
{{- if and (not .Values.secrets.existingSecret) (or .Values.secrets.ledgerSigningKey .Values.secrets.data .Values.secrets.clusterKey) }}true{{- end }}
{{- end }}

{{/*
Issue 17: what several replicas need, checked before anything renders: shared state in PostgreSQL, the key they
share, and one ledger signing key for all (one log per tenant, signed by every replica). Without them each replica
would keep its own operations, pins and ledger behind one Service.
*/}}
{{- define "cloakgate.checkReplicas" -}}
{{- if gt (int .Values.replicas) 1 }}
{{- if not .Values.postgresql.url }}
{{- fail "replicas > 1 needs postgresql.url (jdbc:postgresql://host:5432/db): replicas share their state in PostgreSQL, e.g. a CloudNativePG cluster's read-write Service (README \"Running several replicas\")" }}
{{- end }}
{{- if not .Values.postgresql.existingSecret }}
{{- fail "replicas > 1 needs postgresql.existingSecret: the Secret holding the database password (key postgresql.passwordKey)" }}
{{- end }}
{{- if not (or .Values.secrets.clusterKey .Values.secrets.existingSecret) }}
{{- fail "replicas > 1 needs secrets.clusterKey (openssl rand -base64 32) or secrets.existingSecret holding it under secrets.clusterKeyName: the replicas' shared key for session ids and forwarded requests" }}
{{- end }}
{{- if not (or .Values.secrets.ledgerSigningKey .Values.secrets.existingSecret) }}
{{- fail "replicas > 1 needs secrets.ledgerSigningKey or secrets.existingSecret: every replica signs the one ledger per tenant with the same key" }}
{{- end }}
{{- end }}
{{- if and .Values.postgresql.url (not (hasPrefix "jdbc:postgresql://" .Values.postgresql.url)) }}
{{- fail "postgresql.url must be a JDBC URL, jdbc:postgresql://host:5432/db" }}
{{- end }}
{{- if and .Values.postgresql.url (not .Values.postgresql.existingSecret) }}
{{- fail "postgresql.url needs postgresql.existingSecret: the Secret holding the database password (key postgresql.passwordKey)" }}
{{- end }}
{{- if and .Values.postgresql.url (not (or .Values.postgresql.username .Values.postgresql.usernameKey)) }}
{{- fail "postgresql.url needs postgresql.username, or postgresql.usernameKey naming the user's key in postgresql.existingSecret" }}
{{- end }}
{{- end }}

{{/* Issue 17: the headless Service that gives each replica a DNS name for forwarded requests */}}
{{- define "cloakgate.peersService" -}}
{{- printf "%s-peers" (include "cloakgate.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The network destinations the inline tenants declare, as a YAML list of {host, port, peer, where}: every HTTP
upstream's url and every JWT issuer's jwks_url, parsed as a URL (scheme default ports 80/443). A host named in the
url through ${env:...} cannot be derived and stops the render.
*/}}
{{- define "cloakgate.upstreamTargets" -}}
{{- $targets := dict }}
{{- range $tenant, $cfg := .Values.tenants.inline }}
{{- $urls := list }}
{{- range $up, $u := (get $cfg "upstreams" | default dict) }}
{{- if hasKey $u "url" }}
{{- $urls = append $urls (list (printf "tenants.inline.%s.upstreams.%s.url" $tenant $up) $u.url) }}
{{- end }}
{{- end }}
{{- $auth := get $cfg "auth" | default dict }}
{{- range $iss, $i := (get $auth "jwt_issuers" | default dict) }}
{{- if hasKey $i "jwks_url" }}
{{- $urls = append $urls (list (printf "tenants.inline.%s.auth.jwt_issuers.%s.jwks_url" $tenant $iss) $i.jwks_url) }}
{{- end }}
{{- end }}
{{- range $urls }}
{{- $where := index . 0 }}
{{- $url := index . 1 }}
{{- if or (not (regexMatch "^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+" $url)) (contains "$" (regexFind "^[^:]*://[^/?#]*" $url)) }}
{{- fail (printf "networkPolicy: %s: the host cannot be derived from the url (write scheme, host and port literally, not through ${env:...})" $where) }}
{{- end }}
{{- $parsed := urlParse $url }}
{{- $hostport := $parsed.host }}
{{- $host := regexReplaceAll "^\\[?([^\\]]*?)\\]?(:[0-9]+)?$" $hostport "${1}" | lower }}
{{- $port := trimPrefix ":" (regexFind ":[0-9]+$" (regexReplaceAll "^\\[[^\\]]*\\]" $hostport "")) }}
{{- if not $port }}
{{- $port = ternary "443" "80" (eq (lower $parsed.scheme) "https") }}
{{- end }}
{{- $_ := set $targets (printf "%s|%s" $host $port) (dict "host" $host "port" (atoi $port) "where" $where) }}
{{- end }}
{{- end }}
{{- $out := list }}
{{- range $k := keys $targets | sortAlpha }}
{{- $out = append $out (get $targets $k) }}
{{- end }}
{{- toYaml $out }}
{{- end }}
