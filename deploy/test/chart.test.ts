import { join } from "node:path";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRenderer, chartDir, type K8sObject, renderObjects, renderRaw } from "./render.ts";

// The schema of every kind the chart renders (kubernetes-models' validators, from the Kubernetes OpenAPI).
const models: Record<string, new (data: never) => { validate(): void }> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/Ingress": Ingress,
};

/** Validates one object against its Kubernetes schema; throws naming the object and the first errors. */
function validate(obj: K8sObject): void {
  const Model = models[`${obj.apiVersion}/${obj.kind}`];
  if (!Model) throw new Error(`no Kubernetes schema wired for ${obj.apiVersion} ${obj.kind} (${obj.metadata?.name})`);
  try {
    new Model(obj as never).validate();
  } catch (err) {
    throw new Error(`${obj.kind} ${obj.metadata.name}: ${(err as Error).message}`);
  }
}

const RELEASE = "quarry";
const STATELESS = [
  "gateway",
  "identity-service",
  "ci-api",
  "ci-worker",
  "ci-artifacts",
  "hook-service",
  "mirror-service",
  "collab-service",
  "error-tracking-service",
  "activity-service",
];
const GRPC_SERVICES: Record<string, number> = {
  "identity-service": 50051,
  "repo-service": 50052,
  "ci-api": 50053,
  "ci-artifacts": 50053,
  "mirror-service": 50054,
  "hook-service": 50055,
  "collab-service": 50056,
  "error-tracking-service": 50057,
  "activity-service": 50058,
};

/** The object of `kind` named <release>-<name> (name "" = the release's own, e.g. its ConfigMap and Secret). */
const find = (objs: K8sObject[], kind: string, name: string) => {
  const full = name ? `${RELEASE}-${name}` : RELEASE;
  const found = objs.find((o) => o.kind === kind && o.metadata.name === full);
  if (!found) throw new Error(`no ${kind} ${full} rendered`);
  return found;
};
const container = (o: K8sObject) => o.spec.template.spec.containers[0];
const envValue = (o: K8sObject, name: string) => container(o).env.find((e: { name: string }) => e.name === name);

let renderer: string;
beforeAll(() => {
  renderer = buildRenderer();
}, 120_000);

describe.each([
  { values: "default values", args: [] as string[], artifacts: { min: 2, max: 10 } },
  { values: "artifacts scaled", args: ["-f", join(chartDir, "ci", "artifacts-scaled.yaml")], artifacts: { min: 4, max: 30 } },
])("the chart with $values", ({ args, artifacts }) => {
  let objs: K8sObject[];
  beforeAll(() => {
    objs = renderObjects(renderer, chartDir, ["--name", RELEASE, ...args]);
  });

  it("validates every rendered object against the Kubernetes schemas", () => {
    expect(objs.length).toBeGreaterThan(30);
    for (const o of objs) validate(o);
  });

  it("has one Deployment per stateless service, ci-service in three roles from one image", () => {
    const deployments = objs.filter((o) => o.kind === "Deployment").map((o) => o.metadata.name);
    expect(deployments.sort()).toEqual(STATELESS.map((n) => `${RELEASE}-${n}`).sort());
    for (const role of ["api", "worker", "artifacts"]) {
      const d = find(objs, "Deployment", `ci-${role}`);
      expect(container(d).image).toBe("quarry/ci-service:0.1.0");
      expect(envValue(d, "QUARRY_CI_ROLE")).toEqual({ name: "QUARRY_CI_ROLE", value: role });
    }
    expect(container(find(objs, "Deployment", "hook-service")).image).toBe("quarry/hook-service:0.1.0");
  });

  it("runs repo-service as a StatefulSet with a volume claim per replica and a headless Service", () => {
    const sts = find(objs, "StatefulSet", "repo-service");
    expect(sts.spec.volumeClaimTemplates).toHaveLength(1);
    expect(sts.spec.volumeClaimTemplates[0].metadata.name).toBe("repositories");
    expect(container(sts).volumeMounts).toEqual([{ name: "repositories", mountPath: "/var/lib/quarry/repositories" }]);
    expect(envValue(sts, "QUARRY_STORAGE_ROOT").value).toBe("/var/lib/quarry/repositories");
    const headless = find(objs, "Service", "repo-service-headless");
    expect(headless.spec.clusterIP).toBe("None");
    expect(sts.spec.serviceName).toBe(headless.metadata.name);
  });

  it("gives every gRPC service a Service on its port, and probes it with grpc", () => {
    for (const [name, port] of Object.entries(GRPC_SERVICES)) {
      const svc = find(objs, "Service", name);
      expect(svc.spec.ports[0].port).toBe(port);
      const workload = name === "repo-service" ? find(objs, "StatefulSet", name) : find(objs, "Deployment", name);
      expect(svc.spec.selector).toEqual(workload.spec.selector.matchLabels);
      expect(container(workload).readinessProbe.grpc.port).toBe(port);
      expect(container(workload).livenessProbe.grpc.port).toBe(port);
    }
    // The worker role takes no calls: no Service, still probed on its health service.
    expect(objs.some((o) => o.kind === "Service" && o.metadata.name === `${RELEASE}-ci-worker`)).toBe(false);
    expect(container(find(objs, "Deployment", "ci-worker")).readinessProbe.grpc.port).toBe(50053);
    const gw = container(find(objs, "Deployment", "gateway"));
    expect(gw.livenessProbe.httpGet.path).toBe("/-/liveness");
    expect(find(objs, "Service", "gateway").spec.ports[0].port).toBe(8080);
  });

  it("points the gateway's CI_ARTIFACTS_ADDRESS at the ci-artifacts Service", () => {
    const gw = find(objs, "Deployment", "gateway");
    const configMap = container(gw).envFrom[0].configMapRef.name;
    const data = objs.find((o) => o.kind === "ConfigMap" && o.metadata.name === configMap)?.data;
    expect(data?.CI_ARTIFACTS_ADDRESS).toBe(`${RELEASE}-ci-artifacts:50053`);
    expect(data?.CI_SERVICE_ADDRESS).toBe(`${RELEASE}-ci-api:50053`);
    expect(data?.REPO_SERVICE_ADDRESS).toBe(`${RELEASE}-repo-service:50052`);
    const artifacts = find(objs, "Service", "ci-artifacts");
    expect(artifacts.spec.selector["app.kubernetes.io/component"]).toBe("ci-artifacts");
  });

  it("autoscales the gateway and ci-artifacts (autoscaling/v2)", () => {
    const hpas = objs.filter((o) => o.kind === "HorizontalPodAutoscaler");
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual([`${RELEASE}-ci-artifacts`, `${RELEASE}-gateway`]);
    const hpa = find(objs, "HorizontalPodAutoscaler", "ci-artifacts");
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: `${RELEASE}-ci-artifacts` });
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([artifacts.min, artifacts.max]);
    // The HPA owns the replica count: the Deployment leaves it out so an upgrade does not reset it.
    expect(find(objs, "Deployment", "ci-artifacts").spec.replicas).toBeUndefined();
    expect(find(objs, "Deployment", "ci-api").spec.replicas).toBe(2);
  });

  it("has a PodDisruptionBudget per component, the Ingress, the Secret and the scrape annotations", () => {
    for (const name of [...STATELESS, "repo-service"]) {
      const pdb = find(objs, "PodDisruptionBudget", name);
      expect(pdb.spec.selector.matchLabels["app.kubernetes.io/component"]).toBe(name);
    }
    expect(find(objs, "Ingress", "gateway").spec.rules[0].http.paths[0].backend.service.name).toBe(`${RELEASE}-gateway`);
    const secret = find(objs, "Secret", "").data ?? {};
    expect(Buffer.from(secret["ci-database-url"] ?? "", "base64").toString()).toBe("postgresql://quarry@postgresql:5432/quarry_ci");
    expect(Buffer.from(secret["ci-encryption-key"] ?? "", "base64").toString()).toMatch(/^[A-Za-z0-9]{48}$/);
    for (const o of objs.filter((x) => x.kind === "Deployment" || x.kind === "StatefulSet")) {
      const a = o.spec.template.metadata.annotations;
      expect(a["prometheus.io/scrape"]).toBe("true");
      expect(a["prometheus.io/path"]).toBe("/metrics");
      expect(a["prometheus.io/port"]).toBe(o.metadata.name === `${RELEASE}-gateway` ? "8080" : "9464");
    }
  });
});

describe("chart options", () => {
  it("exposes git over SSH through its own Service when ssh.enabled (Ingress is HTTP only)", () => {
    const objs = renderObjects(renderer, chartDir, ["--name", RELEASE, "--set", "ssh.enabled=true,ssh.service.type=NodePort,ssh.service.nodePort=30022"]);
    for (const o of objs) validate(o);
    const ssh = find(objs, "Service", "repo-service-ssh");
    expect(ssh.spec.type).toBe("NodePort");
    expect(ssh.spec.ports[0]).toMatchObject({ port: 22, targetPort: "ssh", nodePort: 30022 });
    expect(envValue(find(objs, "StatefulSet", "repo-service"), "QUARRY_SSH_PORT").value).toBe("2222");
    expect(envValue(find(objs, "Deployment", "gateway"), "QUARRY_SSH_PORT").value).toBe("22");
  });

  it("reads every secret from an existingSecret and creates none", () => {
    const objs = renderObjects(renderer, chartDir, ["--name", RELEASE, "--set", "secrets.existingSecret=mine"]);
    expect(objs.some((o) => o.kind === "Secret")).toBe(false);
    const identity = container(find(objs, "Deployment", "identity-service"));
    const refs = identity.env
      .filter((e: { valueFrom?: unknown }) => e.valueFrom)
      .map((e: { valueFrom: { secretKeyRef: { name: string } } }) => e.valueFrom.secretKeyRef.name);
    expect(new Set(refs)).toEqual(new Set(["mine"]));
  });

  it("refuses an encryption key shorter than the services accept", () => {
    expect(() => renderRaw(renderer, chartDir, ["--set", "secrets.hookEncryptionKey=too-short"])).toThrow(
      /secrets.hookEncryptionKey must be at least 32 characters/,
    );
  });

  it("fails schema validation on a malformed value, so the check is live", () => {
    const objs = renderObjects(renderer, chartDir, ["--name", RELEASE, "--set", "repo.replicas=two"]);
    expect(() => validate(find(objs, "StatefulSet", "repo-service"))).toThrow(/replicas must be integer/);
  });
});
