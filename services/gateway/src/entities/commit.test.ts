import { describe, expect, it } from "vitest";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import { commitDetailEntity, commitEntity, commitSignatureEntity, commitWithStatsEntity, fullTitle } from "./commit.ts";
import { diffEntity, unidiff } from "./diff.ts";
import { pipelineMessage, urls } from "./ci-messages.test-helper.ts";
import { pipelineBasic } from "./pipeline.ts";

const commit: Commit = {
  id: "a".repeat(40),
  shortId: "aaaaaaaa",
  title: "cut title...",
  message: `${"word ".repeat(30).trim()}\n\nbody\n`,
  authorName: "A",
  authorEmail: "a@example.com",
  authoredDate: "2030-01-01T10:00:00+00:00",
  committerName: "C",
  committerEmail: "c@example.com",
  committedDate: "2030-01-02T10:00:00+01:00",
  parentIds: [],
  trailers: {},
  extendedTrailers: {},
};

describe("commit entities", () => {
  it("shows the full first line as title (GitLab's full_title), however long", () => {
    expect(commitEntity(commit, "http://x/p").title).toBe("word ".repeat(30).trim());
    expect(fullTitle("One\r\nTwo")).toBe("One");
    expect(fullTitle(" \n")).toBe("No commit message");
  });

  it("adds stats, status, project_id and last_pipeline in GitLab's order", () => {
    const detail = commitDetailEntity(commit, { additions: 1, deletions: 2, total: 3 }, "http://x/p", 7, null);
    expect(Object.keys(detail).slice(-5)).toEqual(["web_url", "stats", "status", "project_id", "last_pipeline"]);
    expect(detail).toMatchObject({
      created_at: commit.committedDate,
      stats: { additions: 1, deletions: 2, total: 3 },
      status: null,
      project_id: 7,
      last_pipeline: null,
    });
    expect(commitDetailEntity(commit, null, "http://x/p", 7, null)).not.toHaveProperty("stats");
    expect(commitWithStatsEntity(commit, null, "http://x/p").stats).toEqual({ additions: 0, deletions: 0, total: 0 });
  });

  it("shows the newest pipeline and its status on a single commit", () => {
    const pipeline = pipelineBasic(pipelineMessage({ status: "running" }), urls);
    expect(commitDetailEntity(commit, null, "http://x/p", 7, pipeline)).toMatchObject({ status: "running", last_pipeline: pipeline });
  });

  const sig = (signatureType: string) => ({ signatureType, gpgKeyPrimaryKeyid: "", signature: "", signedData: Buffer.alloc(0), committerEmail: "" });

  it("shapes SSH and X.509 signatures like GitLab, unverified without a verdict", () => {
    expect(commitSignatureEntity(sig("SSH"))).toEqual({
      signature_type: "SSH",
      verification_status: "unverified",
      key: null,
      commit_source: "gitaly",
    });
    expect(commitSignatureEntity(sig("X509"))).toEqual({
      signature_type: "X509",
      verification_status: "unverified",
      x509_certificate: null,
      commit_source: "gitaly",
    });
    expect(commitSignatureEntity(sig("PGP"))).toMatchObject({ gpg_key_primary_keyid: null });
  });

  it("shows identity-service's verdict: the GPG key, its subkey and user id; nulls for what is unset", () => {
    const verdict = {
      verificationStatus: "verified",
      gpgKeyId: 3,
      gpgKeyPrimaryKeyid: "0123456789ABCDEF",
      gpgKeyUserName: "Ada",
      gpgKeyUserEmail: "ada@example.com",
      gpgKeySubkeyId: 0,
      sshKey: null,
    };
    expect(commitSignatureEntity(sig("PGP"), verdict)).toEqual({
      signature_type: "PGP",
      verification_status: "verified",
      gpg_key_id: 3,
      gpg_key_primary_keyid: "0123456789ABCDEF",
      gpg_key_user_name: "Ada",
      gpg_key_user_email: "ada@example.com",
      gpg_key_subkey_id: null,
      commit_source: "gitaly",
    });
  });
});

describe("diff entity", () => {
  const base = {
    diff: "@@ -1 +0,0 @@\n-x\n",
    newPath: "a",
    oldPath: "a",
    aMode: "100644",
    bMode: "0",
    newFile: false,
    renamedFile: false,
    deletedFile: true,
    tooLarge: false,
    collapsed: false,
  };

  it("adds unified headers, /dev/null for a deleted side; leaves empty and binary diffs alone", () => {
    expect(unidiff(base)).toBe("--- a/a\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
    expect(unidiff({ ...base, deletedFile: false, renamedFile: true, oldPath: "old", newPath: "new", diff: "@@ -1 +1 @@\n-x\n+y\n" })).toBe(
      "--- a/old\n+++ b/new\n@@ -1 +1 @@\n-x\n+y\n",
    );
    expect(unidiff({ ...base, diff: "" })).toBe("");
    expect(unidiff({ ...base, diff: "Binary files a/a and /dev/null differ\n" })).toBe("Binary files a/a and /dev/null differ\n");
    expect(diffEntity(base, { unidiff: true }).diff).toBe(unidiff(base));
    expect(diffEntity({ ...base, tooLarge: true, diff: "" })).toMatchObject({ diff: "", too_large: true, collapsed: false, generated_file: null });
  });
});
