// A service's live copy of the instance settings. identity-service owns them; each service that
// applies one reads it from here on every use, so a change through PUT /application/settings
// takes effect at once everywhere: the change arrives on the bus (an ephemeral consumer per
// process, like the gateway's token revocations), and the first copy is fetched from
// identity-service at start, retried in the background until identity answers.
import { randomUUID } from "node:crypto";
import { type EventBus, Subjects, type Subscription } from "@quarry/bus";
import { type ApplicationSettings, DEFAULT_APPLICATION_SETTINGS, normalizeApplicationSettings } from "./settings.ts";

/** What identity-service answers and publishes: the settings document and its revision. */
export interface ApplicationSettingsSnapshot {
  /** The settings under GitLab's names (JSON object). */
  settings: unknown;
  /** Increases with every change; an older snapshot never replaces a newer one. */
  revision: number;
}

export interface ApplicationSettingsCacheOptions {
  /** This service's name, for the bus consumer. */
  service: string;
  /** Reads the current snapshot from identity-service. */
  fetch: () => Promise<ApplicationSettingsSnapshot>;
  bus?: EventBus;
  log?: { warn(obj: object, msg: string): void };
  /** The subject changes arrive on (tests on a private NATS subject prefix). Default quarry.settings.application. */
  subject?: string;
  /** Delay between fetch attempts while identity-service does not answer. Default 2000 ms. */
  retryMs?: number;
}

export class ApplicationSettingsCache implements Subscription {
  #settings: ApplicationSettings = DEFAULT_APPLICATION_SETTINGS;
  #revision = -1;
  #subscription: Subscription | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #loaded: Promise<void>;
  #fetch: () => Promise<ApplicationSettingsSnapshot>;
  #resolveLoaded: () => void = () => {};

  constructor(private readonly o: ApplicationSettingsCacheOptions) {
    this.#fetch = o.fetch;
    this.#loaded = new Promise((resolve) => {
      this.#resolveLoaded = resolve;
    });
  }

  /** The settings in force (GitLab's defaults until the first snapshot arrives). */
  get current(): ApplicationSettings {
    return this.#settings;
  }

  /** Resolves once a snapshot from identity-service (fetched or published) is in force. */
  loaded(): Promise<void> {
    return this.#loaded;
  }

  /** Takes a snapshot unless a newer one is already in force. */
  apply(snapshot: ApplicationSettingsSnapshot): void {
    if (snapshot.revision < this.#revision) return;
    this.#revision = snapshot.revision;
    this.#settings = normalizeApplicationSettings(snapshot.settings);
    this.#resolveLoaded();
  }

  /** Subscribes to changes first (so none is missed), then fetches the current snapshot. */
  async start(): Promise<this> {
    this.#subscription = await this.o.bus?.subscribe<ApplicationSettingsSnapshot>(
      this.o.subject ?? Subjects.applicationSettings,
      async (msg) => this.apply(msg.data),
      {
        durable: `${this.o.service}-settings-${randomUUID()}`,
        ephemeral: true,
      },
    );
    await this.#fetchOnce();
    return this;
  }

  /**
   * Fetches from identity-service from now on: for a service started before identity-service
   * (repo-service in the one-process launcher), once identity's address is known.
   */
  fetchFrom(identity: SettingsSource): Promise<void> {
    this.#fetch = fetchFromIdentity(identity, this.o.service);
    clearTimeout(this.#timer);
    return this.#fetchOnce();
  }

  async #fetchOnce(): Promise<void> {
    if (this.#stopped) return;
    try {
      this.apply(await this.#fetch());
    } catch (err) {
      this.o.log?.warn({ err }, "application settings not available yet; retrying");
      this.#timer = setTimeout(() => void this.#fetchOnce(), this.o.retryMs ?? 2000);
      this.#timer.unref();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#subscription?.unsubscribe();
  }

  /** The cache is a Subscription too, so services' subscribe hooks stop it with their consumers. */
  unsubscribe(): Promise<void> {
    return this.stop();
  }
}

/** The part of identity-service's client the cache uses (structural, so this package needs no proto types). */
export interface SettingsSource {
  GetApplicationSettings(req: { actor: { system: string } }): Promise<{ settingsJson: string; revision: number | string | { toString(): string } }>;
}

/** identity-service's GetApplicationSettings, called as `service`'s system actor. */
function fetchFromIdentity(identity: SettingsSource, service: string): () => Promise<ApplicationSettingsSnapshot> {
  return async () => {
    const s = await identity.GetApplicationSettings({ actor: { system: service } });
    return { settings: JSON.parse(s.settingsJson), revision: Number(String(s.revision)) };
  };
}

/** A cache fed by identity-service (`identity` unset: GitLab's defaults until a change arrives on the bus, or fetchFrom). */
export function applicationSettingsFromIdentity(o: Omit<ApplicationSettingsCacheOptions, "fetch"> & { identity?: SettingsSource }): ApplicationSettingsCache {
  const fetch = o.identity ? fetchFromIdentity(o.identity, o.service) : async () => ({ settings: {}, revision: -1 });
  return new ApplicationSettingsCache({ ...o, fetch });
}
