import { type ApplicationSettings, branchProtectionDefaults } from "@quarry/application-settings";

/**
 * GitLab's Entities::ApplicationSetting for the settings Quarry honours: each under GitLab's name,
 * the derived default_branch_protection_defaults (GitLab 17's object form of the level), and the
 * row's id and times. Settings Quarry does not apply are not shown rather than shown inert.
 */
export function applicationSettingsEntity(s: { settings: ApplicationSettings; createdAt: string; updatedAt: string }) {
  return {
    id: 1,
    ...s.settings,
    default_branch_protection_defaults: branchProtectionDefaults(s.settings.default_branch_protection),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}
