// Protected-branch rules (GitLab's ProtectedBranch + *_access_levels): loaded once per request
// and asked "is this branch protected, and may this access level push / merge / force-push?".
// Every ref-changing RPC asks here, so API writes and git pushes obey the same rules.
import { AccessLevel, branchRef } from "@quarry/gitlab";
import { forbidden } from "@quarry/grpc";
import type { ProtectedBranch__Output as ProtectedBranchMessage } from "@quarry/proto/types/repo/v1/ProtectedBranch";
import { compileWildcard } from "@quarry/safe-regex";
import type { RepoDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/** The levels a rule may name. */
export const RULE_LEVELS: readonly number[] = [AccessLevel.NO_ACCESS, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.ADMIN];

export type AccessKind = "push" | "merge" | "unprotect";

export interface ProtectionRule {
  name: string;
  allowForcePush: boolean;
  levels: Record<AccessKind, number[]>;
}

/** A rule row with its access levels, as Prisma returns it with `include: { accessLevels: true }`. */
export type ProtectedBranchRow = Prisma.ProtectedBranchGetPayload<{ include: { accessLevels: true } }>;

/**
 * Whether `name` matches a rule name: exactly, or as a wildcard where `*` matches any characters
 * including "/" (GitLab's RefMatcher).
 */
export function matchesRule(rule: string, name: string): boolean {
  if (!rule.includes("*")) return rule === name;
  // RE2: a rule with many stars against a long name stays linear (`.*?` backtracking would not).
  return compileWildcard(rule).test(name);
}

/** Most projects whose rules the read cache keeps; the oldest entry goes first. */
const RULE_CACHE_PROJECTS = 10_000;
/** Project id → generation of its rules, moved on after every write of them (protectionChanged). */
const ruleGenerations = new Map<number, number>();
let ruleClock = 0;
/** Per database client: project id → its rules at a generation. */
const ruleCaches = new WeakMap<object, Map<number, { generation: number; rules: readonly ProtectionRule[] }>>();

/**
 * Marks a project's protected-branch rules as changed: call after the transaction that wrote them
 * ended (committed or not), so a read that started before the commit is not kept.
 */
export function protectionChanged(projectId: number): void {
  ruleGenerations.set(projectId, ++ruleClock);
}

async function readRules(deps: RepoDeps, projectId: number): Promise<ProtectionRule[]> {
  const rows = await deps.prisma.protectedBranch.findMany({ where: { projectId }, include: { accessLevels: true } });
  return rows.map(toRule);
}

export class BranchProtection {
  constructor(readonly rules: readonly ProtectionRule[]) {}

  /** The project's rules, plus bare patterns (maintainers only) a caller adds. */
  static async load(deps: RepoDeps, projectId: number, extraPatterns: readonly string[] = []): Promise<BranchProtection> {
    const rules = projectId ? await readRules(deps, projectId) : [];
    for (const name of extraPatterns) {
      rules.push({
        name,
        allowForcePush: false,
        levels: { push: [AccessLevel.MAINTAINER], merge: [AccessLevel.MAINTAINER], unprotect: [AccessLevel.MAINTAINER] },
      });
    }
    return new BranchProtection(rules);
  }

  /**
   * The project's rules for reads that only show them (branch listings): kept in memory per
   * project until protectionChanged. Writes and pushes use load(), which reads the table.
   */
  static async cached(deps: RepoDeps, projectId: number): Promise<BranchProtection> {
    if (!projectId) return new BranchProtection([]);
    let cache = ruleCaches.get(deps.prisma);
    if (!cache) {
      cache = new Map();
      ruleCaches.set(deps.prisma, cache);
    }
    const generation = ruleGenerations.get(projectId) ?? 0;
    const hit = cache.get(projectId);
    if (hit?.generation === generation) return new BranchProtection(hit.rules);
    const rules = await readRules(deps, projectId);
    // Kept only when no write of the rules ended while reading them.
    if ((ruleGenerations.get(projectId) ?? 0) === generation) {
      cache.delete(projectId);
      cache.set(projectId, { generation, rules });
      if (cache.size > RULE_CACHE_PROJECTS) cache.delete(cache.keys().next().value!);
    }
    return new BranchProtection(rules);
  }

  matching(branch: string): ProtectionRule[] {
    return this.rules.filter((r) => matchesRule(r.name, branch));
  }

  isProtected(branch: string): boolean {
    return this.matching(branch).length > 0;
  }

  /** GitLab's ProtectedBranch.developers_can?: a matching rule grants `kind` to Developers. */
  developersCan(kind: AccessKind, branch: string): boolean {
    return this.matching(branch).some((r) => r.levels[kind].includes(AccessLevel.DEVELOPER));
  }

  /**
   * Whether a user with `accessLevel` may do `kind` on `branch`: unprotected branches need
   * Developer; protected ones need one matching rule granting it (0 grants no one, 60 admins only).
   */
  allows(kind: AccessKind, branch: string, accessLevel: number): boolean {
    const rules = this.matching(branch);
    if (!rules.length) return accessLevel >= AccessLevel.DEVELOPER;
    return rules.some((r) => r.levels[kind].some((level) => level !== AccessLevel.NO_ACCESS && accessLevel >= level));
  }

  /** Force pushes (history rewrites) need push access and, on a protected branch, a rule allowing them. */
  allowsForcePush(branch: string, accessLevel: number): boolean {
    const rules = this.matching(branch);
    if (!this.allows("push", branch, accessLevel)) return false;
    return !rules.length || rules.some((r) => r.allowForcePush);
  }

  /**
   * Refuses an API write (commit, file, submodule, cherry-pick, revert) to `branch` the caller may
   * not push to, with GitLab's 403 "You are not allowed to push into this branch".
   */
  assertCanPush(branch: string, accessLevel: number, o: { force?: boolean } = {}): void {
    if (!this.allows("push", branch, accessLevel)) throw forbidden("403 Forbidden - You are not allowed to push into this branch");
    if (o.force && !this.allowsForcePush(branch, accessLevel)) {
      throw forbidden("403 Forbidden - You are not allowed to force push code to a protected branch on this project.");
    }
  }
}

/**
 * GitLab's default_branch_protection settings → the push and merge levels of the rule that
 * protects a project's default branch when it is first created (0 = leave it unprotected).
 * 1 developers can push, 2 fully protected, 3 developers can merge only, 4 full after the first push.
 */
export const DEFAULT_BRANCH_PROTECTION: Record<number, { push: number; merge: number } | null> = {
  0: null,
  1: { push: AccessLevel.DEVELOPER, merge: AccessLevel.DEVELOPER },
  2: { push: AccessLevel.MAINTAINER, merge: AccessLevel.MAINTAINER },
  3: { push: AccessLevel.MAINTAINER, merge: AccessLevel.DEVELOPER },
  4: { push: AccessLevel.MAINTAINER, merge: AccessLevel.MAINTAINER },
};

/**
 * Protects a project's default branch as it comes into existence (GitLab's
 * Projects::ProtectDefaultBranchService), unless a rule by that name exists. Runs in the
 * caller's transaction so the branch and its rule appear together.
 */
export async function protectDefaultBranch(tx: Prisma.TransactionClient, setting: number, projectId: number, branch: string): Promise<void> {
  const levels = DEFAULT_BRANCH_PROTECTION[setting];
  if (!levels || !projectId || !branch) return;
  const existing = await tx.protectedBranch.findUnique({ where: { projectId_name: { projectId, name: branch } } });
  if (existing) return;
  await tx.protectedBranch.create({
    data: {
      projectId,
      name: branch,
      accessLevels: {
        create: [
          { kind: "push", accessLevel: levels.push },
          { kind: "merge", accessLevel: levels.merge },
          { kind: "unprotect", accessLevel: AccessLevel.MAINTAINER },
        ],
      },
    },
  });
}

/**
 * protectDefaultBranch for a ref change that creates the project's default branch (the first
 * push or commit of an empty repository, or re-creating it), as GitLab does on branch creation.
 */
export async function protectIfNewDefaultBranch(
  tx: Prisma.TransactionClient,
  setting: number,
  context: { projectId: number; defaultBranch: string },
  change: { ref: string; before: string },
): Promise<void> {
  if (!/^0+$/.test(change.before) || change.ref !== branchRef(context.defaultBranch)) return;
  await protectDefaultBranch(tx, setting, context.projectId, context.defaultBranch);
}

function toRule(row: ProtectedBranchRow): ProtectionRule {
  const levels: Record<AccessKind, number[]> = { push: [], merge: [], unprotect: [] };
  for (const l of row.accessLevels) if (l.kind in levels) levels[l.kind as AccessKind].push(l.accessLevel);
  return { name: row.name, allowForcePush: row.allowForcePush, levels };
}

/** The wire form of a rule row. */
export function toProtectedBranchMessage(row: ProtectedBranchRow): ProtectedBranchMessage {
  const of = (kind: AccessKind) =>
    row.accessLevels
      .filter((l) => l.kind === kind)
      .sort((a, b) => a.id - b.id)
      .map((l) => ({ id: l.id, accessLevel: l.accessLevel }));
  return {
    id: row.id,
    name: row.name,
    pushAccessLevels: of("push"),
    mergeAccessLevels: of("merge"),
    unprotectAccessLevels: of("unprotect"),
    allowForcePush: row.allowForcePush,
    codeOwnerApprovalRequired: row.codeOwnerApprovalRequired,
  };
}
