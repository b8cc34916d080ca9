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
{{- if and (not .Values.secrets.existingSecret) (or .Values.secrets.ledgerSigningKey .Values.secrets.data) }}true{{- end }}
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
