import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildRenderer, chartDir, deployDir, renderObjects } from "./render.ts";

interface ComposeService {
  image?: string;
  build?: { args?: Record<string, string> };
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
}

describe("docker-compose.yml", () => {
  let compose: Record<string, ComposeService>;
  let chartReplicas: Map<string, number>;
  beforeAll(() => {
    // `merge: true`: the file's services share settings through YAML merge keys (<<).
    compose = parse(readFileSync(join(deployDir, "docker-compose.yml"), "utf8"), { merge: true }).services;
    const objs = renderObjects(buildRenderer(), chartDir, ["--name", "quarry"]);
    // What the chart runs by default: a Deployment's replicas, or its HPA's minimum when the HPA owns the count.
    chartReplicas = new Map();
    for (const o of objs) {
      if (o.kind !== "Deployment" && o.kind !== "StatefulSet") continue;
      const component = o.metadata.labels?.["app.kubernetes.io/component"] ?? "";
      const hpa = objs.find((h) => h.kind === "HorizontalPodAutoscaler" && h.spec.scaleTargetRef.name === o.metadata.name);
      chartReplicas.set(component, o.spec.replicas ?? hpa?.spec.minReplicas);
    }
  }, 120_000);

  it("runs the chart's components with the chart's default replicas", () => {
    const quarryServices = Object.keys(compose).filter((n) => !["postgres", "nats", "minio"].includes(n));
    expect(quarryServices.sort()).toEqual([...chartReplicas.keys()].sort());
    for (const name of quarryServices) {
      expect({ name, replicas: compose[name]?.deploy?.replicas ?? 1 }).toEqual({ name, replicas: chartReplicas.get(name) });
    }
  });

  it("runs ci-service's three roles from one image, the gateway sending artifact calls to ci-artifacts", () => {
    for (const role of ["api", "worker", "artifacts"]) {
      const svc = compose[`ci-${role}`];
      expect(svc?.environment?.QUARRY_CI_ROLE).toBe(role);
      expect(svc?.image).toBe("quarry/ci-service");
      expect(svc?.build?.args?.SERVICE).toBe("ci-service");
    }
    expect(compose.gateway?.environment?.CI_ARTIFACTS_ADDRESS).toBe("ci-artifacts:50053");
    expect(compose.gateway?.environment?.CI_SERVICE_ADDRESS).toBe("ci-api:50053");
  });
});
