import { describe, expect, it } from "vitest";
import { buildPushContext, sshCloneUrl } from "./push-context.ts";

describe("sshCloneUrl", () => {
  it("is scp-like on port 22 and an ssh:// URL on any other port", () => {
    expect(sshCloneUrl({ base: "https://code.example.com" }, "g/p")).toBe("git@code.example.com:g/p.git");
    expect(sshCloneUrl({ base: "http://localhost:8080", sshPort: 2222 }, "g/p")).toBe("ssh://git@localhost:2222/g/p.git");
    expect(sshCloneUrl({ base: "http://localhost:8080", sshHost: "git.example.com", sshPort: 22 }, "g/p")).toBe("git@git.example.com:g/p.git");
  });
});

describe("buildPushContext", () => {
  const project = {
    id: "7",
    name: "P",
    description: "",
    pathWithNamespace: "g/p",
    namespace: { name: "G" },
    visibility: "internal",
    defaultBranch: "main",
    ciConfigPath: "",
  };
  const pusher = { userId: 3, name: "Ada", username: "ada", email: "ada@example.com", isAdmin: false };

  it("carries the project's facts, its URLs and the pusher", () => {
    expect(buildPushContext(project, pusher, 30, { base: "http://q.example", sshPort: 2222 })).toEqual({
      projectId: 7,
      projectName: "P",
      projectDescription: "",
      pathWithNamespace: "g/p",
      namespaceName: "G",
      visibilityLevel: 10,
      defaultBranch: "main",
      webUrl: "http://q.example/g/p",
      httpUrl: "http://q.example/g/p.git",
      sshUrl: "ssh://git@q.example:2222/g/p.git",
      ciConfigPath: "",
      userId: 3,
      userName: "Ada",
      userUsername: "ada",
      userEmail: "ada@example.com",
      userAvatar: "",
      accessLevel: 30,
      deployKey: false,
    });
  });

  it("counts instance administrators as 60 for the protected-branch rules, and marks deploy keys", () => {
    expect(buildPushContext(project, { ...pusher, isAdmin: true }, 0, { base: "http://q" }).accessLevel).toBe(60);
    expect(buildPushContext(project, pusher, 30, { base: "http://q" }, { deployKey: true }).deployKey).toBe(true);
  });
});
