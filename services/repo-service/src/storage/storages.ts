// Repository storages (GitLab's repository shards, `Gitlab.config.repositories.storages`): several
// named roots, a weight each for placing new repositories (`repository_storages_weighted`), and
// the one resolver every handler turns a disk path into a directory with.
import { randomInt } from "node:crypto";
import path from "node:path";
import { forbidden } from "@quarry/grpc";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { repositoryPath } from "../validate.ts";

/** The storage every installation has (GitLab requires a `default` storage). */
export const DEFAULT_STORAGE = "default";

/** Gitlab::GitAccess's answer to a write while the repository is read-only (a storage move runs). */
export const READ_ONLY_MESSAGE = "The repository is temporarily read-only. Please try again later.";

/** One configured storage: its name, root directory and placement weight (0 = never chosen for new repositories). */
export interface StorageConfig {
  name: string;
  root: string;
  weight: number;
}

/** What a recorded repository belongs to: a project (its wiki follows it), a snippet or a group wiki. */
export type RepositoryKind = "project" | "snippet" | "group_wiki";

const NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Parses `QUARRY_STORAGES` (`name=/path,name2=/path2`) and `QUARRY_STORAGE_WEIGHTS`
 * (`name=100,name2=50`). Without `QUARRY_STORAGES` there is one storage, `default`, at
 * `defaultRoot`. Weights default to 100 for `default` and 0 for the others. Throws on a
 * malformed entry, a duplicate name, a missing `default` or a weight for an unknown storage.
 */
export function parseStorageConfig(storages: string | undefined, weights: string | undefined, defaultRoot: string): StorageConfig[] {
  const pairs = (spec: string, what: string) =>
    spec
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf("=");
        const name = at > 0 ? entry.slice(0, at).trim() : "";
        const value = at > 0 ? entry.slice(at + 1).trim() : "";
        if (!NAME.test(name) || !value) throw new Error(`${what}: "${entry}" is not name=value`);
        return [name, value] as const;
      });
  const roots = new Map<string, string>();
  for (const [name, root] of storages?.trim() ? pairs(storages, "QUARRY_STORAGES") : [[DEFAULT_STORAGE, defaultRoot] as const]) {
    if (roots.has(name)) throw new Error(`QUARRY_STORAGES: storage "${name}" is named twice`);
    roots.set(name, root);
  }
  if (!roots.has(DEFAULT_STORAGE)) throw new Error(`QUARRY_STORAGES: a storage named "${DEFAULT_STORAGE}" is required`);
  const weightOf = new Map<string, number>([[DEFAULT_STORAGE, 100]]);
  for (const [name, value] of weights?.trim() ? pairs(weights, "QUARRY_STORAGE_WEIGHTS") : []) {
    if (!roots.has(name)) throw new Error(`QUARRY_STORAGE_WEIGHTS: unknown storage "${name}"`);
    const weight = Number(value);
    if (!Number.isInteger(weight) || weight < 0 || weight > 100) throw new Error(`QUARRY_STORAGE_WEIGHTS: weight of "${name}" must be an integer 0–100`);
    weightOf.set(name, weight);
  }
  return [...roots].map(([name, root]) => ({ name, root, weight: weightOf.get(name) ?? 0 }));
}

/** A name chosen at random in proportion to the weights; null when every weight is 0. */
export function pickWeighted(choices: readonly { name: string; weight: number }[], random: (max: number) => number = randomInt): string | null {
  const total = choices.reduce((sum, c) => sum + c.weight, 0);
  if (total <= 0) return null;
  let at = random(total);
  for (const c of choices) {
    if (at < c.weight) return c.name;
    at -= c.weight;
  }
  return null;
}

interface Placement {
  storage: string;
  readOnly: boolean;
}

/**
 * The storage of every repository, resolved in memory: the `repository_storages` rows are read at
 * start and every change (placement, move, removal) goes to the table and the map together. A
 * repository without a row lives on `default` (repositories made before storages existed). A
 * project's wiki (`<path>.wiki.git`) lives where its project (`<path>.git`) does.
 */
export class RepositoryStorages {
  private readonly byName: Map<string, StorageConfig>;
  private readonly placements = new Map<string, Placement>();

  constructor(
    configs: readonly StorageConfig[],
    private readonly prisma: PrismaClient,
  ) {
    this.byName = new Map(configs.map((c) => [c.name, { ...c, root: path.resolve(c.root) }]));
    if (!this.byName.has(DEFAULT_STORAGE)) throw new Error(`a storage named "${DEFAULT_STORAGE}" is required`);
  }

  /** Reads the recorded placements (at start, before serving). */
  async load(): Promise<void> {
    const rows = await this.prisma.repositoryStorageRecord.findMany();
    this.placements.clear();
    for (const r of rows) this.placements.set(r.diskPath, { storage: r.storage, readOnly: r.readOnly });
  }

  /** The configured storages, `default` first. */
  get configs(): StorageConfig[] {
    return [...this.byName.values()].sort((a, b) => (a.name === DEFAULT_STORAGE ? -1 : b.name === DEFAULT_STORAGE ? 1 : 0));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The absolute root of a storage. */
  root(name: string): string {
    const c = this.byName.get(name);
    if (!c) throw new Error(`repository storage "${name}" is not configured`);
    return c.root;
  }

  /** The disk path whose row decides where `diskPath` lives (a wiki follows its project). */
  private owner(diskPath: string): string {
    if (this.placements.has(diskPath) || !diskPath.endsWith(".wiki.git")) return diskPath;
    return diskPath.slice(0, -".wiki.git".length) + ".git";
  }

  /** The storage name a repository lives on. */
  storageOf(diskPath: string): string {
    return this.placements.get(this.owner(diskPath))?.storage ?? DEFAULT_STORAGE;
  }

  /** The repository's directory: the disk path checked (validate.ts) inside its storage's root. */
  resolve(diskPath: string): string {
    return repositoryPath(this.root(this.storageOf(diskPath)), diskPath);
  }

  /** The directory the repository has (or would have) on another storage. */
  resolveOn(storage: string, diskPath: string): string {
    return repositoryPath(this.root(storage), diskPath);
  }

  isReadOnly(diskPath: string): boolean {
    return this.placements.get(this.owner(diskPath))?.readOnly ?? false;
  }

  /** Throws GitLab's temporary read-only refusal (403) while the repository is being moved. */
  assertWritable(diskPath: string): void {
    if (this.isReadOnly(diskPath)) throw forbidden(READ_ONLY_MESSAGE);
  }

  /** A storage for a new repository, by weight, leaving out `exclude`; null when none has a weight. */
  pick(exclude?: string): string | null {
    return pickWeighted(this.configs.filter((c) => c.name !== exclude));
  }

  /**
   * Records where a new repository goes: an existing row is kept, otherwise a storage chosen by
   * weight (`default` when every weight is 0). Returns the storage name.
   */
  async place(diskPath: string, kind: RepositoryKind, containerId: number): Promise<string> {
    const known = this.placements.get(diskPath);
    if (known) return known.storage;
    return this.record(diskPath, this.pick() ?? DEFAULT_STORAGE, kind, containerId);
  }

  /** Inserts the row unless one exists (a concurrent creator's wins), and notes what the table holds. */
  private async record(diskPath: string, storage: string, kind: RepositoryKind, containerId: number): Promise<string> {
    await this.prisma.repositoryStorageRecord.createMany({ data: [{ diskPath, storage, kind, containerId }], skipDuplicates: true });
    const row = await this.prisma.repositoryStorageRecord.findUniqueOrThrow({ where: { diskPath } });
    this.placements.set(diskPath, { storage: row.storage, readOnly: row.readOnly });
    return row.storage;
  }

  /** Records an existing repository (made before storages were recorded) on `default`, when it has no row. */
  async adopt(diskPath: string, kind: RepositoryKind, containerId: number): Promise<void> {
    if (this.placements.has(diskPath)) return;
    await this.record(diskPath, DEFAULT_STORAGE, kind, containerId);
  }

  /** Marks the repository (and its wiki) read-only or writable again. */
  async setReadOnly(diskPath: string, readOnly: boolean): Promise<void> {
    await this.prisma.repositoryStorageRecord.updateMany({ where: { diskPath }, data: { readOnly } });
    const p = this.placements.get(diskPath);
    if (p) p.readOnly = readOnly;
  }

  /** Points the repository (and its wiki) at another storage and makes it writable (a move replicated). */
  async switchStorage(diskPath: string, storage: string): Promise<void> {
    this.root(storage);
    await this.prisma.repositoryStorageRecord.update({ where: { diskPath }, data: { storage, readOnly: false } });
    this.placements.set(diskPath, { storage, readOnly: false });
  }

  /** Notes in memory a read-only mark committed elsewhere (a move scheduled in a transaction). */
  markReadOnly(diskPath: string): void {
    const p = this.placements.get(diskPath);
    if (p) p.readOnly = true;
  }

  /** Notes in memory a storage switch committed elsewhere (a move replicated in a transaction): writable again. */
  markMoved(diskPath: string, storage: string): void {
    this.placements.set(diskPath, { storage, readOnly: false });
  }

  /** Forgets a removed repository. */
  async forget(diskPath: string): Promise<void> {
    await this.prisma.repositoryStorageRecord.deleteMany({ where: { diskPath } });
    this.placements.delete(diskPath);
  }

  /** The recorded repositories of one kind on one storage (bulk moves). */
  async onStorage(storage: string, kind: RepositoryKind): Promise<{ diskPath: string; containerId: number }[]> {
    return this.prisma.repositoryStorageRecord.findMany({
      where: { storage, kind },
      select: { diskPath: true, containerId: true },
      orderBy: { containerId: "asc" },
    });
  }
}
