// UploadArtifact and DownloadArtifact together: what a runner uploads is what clients download,
// on local disk and on an S3 server (s3rver), with presigned redirects where the store can.
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { MinioObjectStore } from "@quarry/object-store";
import type { ArtifactDownloadRequest } from "@quarry/proto/types/ci/v1/ArtifactDownloadRequest";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArtifactsMetadata } from "../artifacts/index.ts";
import { pipelineFrom, requestAs, runner } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";
import { downloadArtifact } from "./download-artifact.ts";
import { updateJob } from "./update-job.ts";
import { uploadArtifact } from "./upload-artifact.ts";

const work = mkdtempSync(path.join(tmpdir(), "quarry-artifacts-"));
let archive: Buffer;
beforeAll(() => {
  mkdirSync(path.join(work, "src", "dist"), { recursive: true });
  writeFileSync(path.join(work, "src", "dist", "app.txt"), "built app\n");
  writeFileSync(path.join(work, "src", "big.bin"), Buffer.alloc(3 * 1024 * 1024, 7));
  execFileSync("zip", ["-qr", path.join(work, "a.zip"), "dist", "big.bin"], { cwd: path.join(work, "src") });
  archive = readFileSync(path.join(work, "a.zip"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function* uploadMessages(
  jobId: number,
  token: string,
  body: Buffer,
  header: Partial<{ artifactType: string; artifactFormat: string; expireIn: string }> = {},
) {
  yield { header: { jobId, token, artifactType: "", artifactFormat: "", expireIn: "", filename: "artifacts.zip", ...header }, data: Buffer.alloc(0) };
  for (let i = 0; i < body.length; i += 64 * 1024) yield { data: body.subarray(i, i + 64 * 1024) };
}
async function download(t: TestContext, req: Partial<ArtifactDownloadRequest>) {
  const messages = [];
  for await (const m of downloadArtifact(t.deps).serverStream(
    { projectId: 0, jobId: 0, refName: "", jobName: "", artifactPath: "", allowRedirect: false, fileType: "", ...req } as never,
    undefined as never,
  ))
    messages.push(m);
  const header = messages[0]!.header!;
  return { header, body: Buffer.concat(messages.slice(1).map((m) => m.data as Buffer)) };
}
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => httpErrorFromGrpc(e),
  );

describe.each([
  { name: "local disk", s3: false },
  { name: "s3rver", s3: true },
])("artifacts on $name", ({ s3 }) => {
  let t: TestContext;
  let server: S3rver | undefined;
  let job: { id: number; token: string; projectId: number };
  beforeAll(async () => {
    t = await setUp(`ci_artifacts_${s3 ? "s3" : "local"}`, { repo: true });
    if (s3) {
      server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: mkdtempSync(path.join(work, "s3-")), resetOnClose: true });
      const { port } = await server.run();
      t.deps.objectStore = new MinioObjectStore({ endPoint: "127.0.0.1", port, useSSL: false, accessKey: "S3RVER", secretKey: "S3RVER", bucket: "artifacts" });
      await t.deps.objectStore.ensureBucket();
    }
    const { pipeline } = await pipelineFrom(t, "build:\n  script: make\n  artifacts:\n    paths: [dist/]\n");
    const taken = (await requestAs(t, (await runner(t)).token))!;
    job = { id: Number(taken.id), token: taken.token, projectId: pipeline.projectId };
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await server?.close();
  });

  it("stores an uploaded archive with its metadata and expiry", async () => {
    const res = await uploadArtifact(t.deps)(uploadMessages(job.id, job.token, archive, { expireIn: "1 week" }) as never);
    expect(res.file).toEqual({ fileType: "archive", fileFormat: "zip", filename: "artifacts.zip", size: archive.length });
    const rows = await t.deps.prisma.jobArtifact.findMany({ where: { jobId: job.id }, orderBy: { fileType: "asc" } });
    expect(rows.map((r) => r.fileType)).toEqual(["archive", "metadata"]);
    const week = Date.now() + 7 * 86400_000;
    expect(Math.abs(rows[0]!.expireAt!.getTime() - week)).toBeLessThan(60_000);
    const metadata = await download(t, { projectId: job.projectId, jobId: job.id, fileType: "metadata" });
    expect(readArtifactsMetadata(metadata.body).map((e) => e.path)).toEqual(["big.bin", "dist/", "dist/app.txt"]);
    // The project's artifacts total (archive and metadata) goes out for its statistics.
    const total = t.published.findLast(
      (e) => e.subject === "quarry.ci.artifacts_statistics" && (e.data as { project_id: number }).project_id === job.projectId,
    );
    expect(total?.data).toMatchObject({ job_artifacts_size: rows.reduce((n, r) => n + Number(r.size), 0) });
  });

  it("refuses uploads from other tokens, of bad types, and of finished jobs", async () => {
    expect(await refusal(uploadArtifact(t.deps)(uploadMessages(job.id, "glcbt-nope", archive) as never))).toMatchObject({ status: 403 });
    expect(await refusal(uploadArtifact(t.deps)(uploadMessages(job.id, job.token, archive, { artifactFormat: "gzip" }) as never))).toMatchObject({
      status: 400,
    });
    expect(await refusal(uploadArtifact(t.deps)(uploadMessages(job.id, job.token, archive, { expireIn: "whenever" }) as never))).toMatchObject({ status: 400 });
  });

  it("serves the whole archive, one file from it, and 404s", async () => {
    const whole = await download(t, { projectId: job.projectId, jobId: job.id });
    expect(whole.header).toMatchObject({ filename: "artifacts.zip", size: archive.length, redirectUrl: "" });
    expect(whole.body.equals(archive)).toBe(true);
    const one = await download(t, { projectId: job.projectId, jobId: job.id, artifactPath: "dist/app.txt" });
    expect(one.header).toMatchObject({ filename: "app.txt", size: 10 });
    expect(one.body.toString()).toBe("built app\n");
    const big = await download(t, { projectId: job.projectId, jobId: job.id, artifactPath: "big.bin" });
    expect(big.body.equals(Buffer.alloc(3 * 1024 * 1024, 7))).toBe(true);
    expect(await refusal(download(t, { projectId: job.projectId, jobId: job.id, artifactPath: "nope.txt" }))).toEqual({
      status: 404,
      body: { message: "404 File Not Found" },
    });
    expect(await refusal(download(t, { projectId: job.projectId + 1, jobId: job.id }))).toEqual({ status: 404, body: { message: "404 Not Found" } });
  });

  it("answers with a presigned URL when direct downloads are on and the store can presign", async () => {
    t.deps.settings.artifactsDirectDownload = true;
    const res = await download(t, { projectId: job.projectId, jobId: job.id, allowRedirect: true });
    t.deps.settings.artifactsDirectDownload = false;
    if (!s3) {
      expect(res.header.redirectUrl).toBe("");
      return;
    }
    expect(res.header.redirectUrl).toMatch(/X-Amz-Signature=/);
    expect(res.body.length).toBe(0);
    const fetched = Buffer.from(await (await fetch(res.header.redirectUrl!)).arrayBuffer());
    expect(fetched.equals(archive)).toBe(true);
  });

  it("finds the job by ref and name only in a successful pipeline", async () => {
    expect(await refusal(download(t, { projectId: job.projectId, refName: "main", jobName: "build" }))).toMatchObject({ status: 404 });
    await updateJob(t.deps)({ jobId: job.id, token: job.token, state: "success", failureReason: "" });
    const byRef = await download(t, { projectId: job.projectId, refName: "main", jobName: "build", artifactPath: "dist/app.txt" });
    expect(byRef.body.toString()).toBe("built app\n");
    expect(await refusal(download(t, { projectId: job.projectId, refName: "main", jobName: "other" }))).toMatchObject({ status: 404 });
  });
});
