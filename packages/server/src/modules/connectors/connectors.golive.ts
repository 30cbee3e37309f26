import { type GivenSettings, type LiveContext, liveSettingsProblems, type SettingProblem } from './connectors.live.ts';
import { connectorDefinitions, connectorSettings, type ProvidersConfig } from './connectors.registry.ts';
import type { LastCheck } from './connectors.report.ts';
import type { CheckResult, Connector, ConnectorDeps } from './connectors.types.ts';

/**
 * Whether these settings may make an account of `connector` there (docs/spec/providers.md,
 * "Going live"): every problem, each naming the setting by its camelCase key, for a 400
 * `provider_settings_invalid`; empty: they may. `settings` are the account's non-secret settings
 * (credentials merged in are allowed and not read). An unknown connector is one problem, on
 * `connector`.
 */
export function checkLiveSettings(connector: string, settings: GivenSettings, ctx: LiveContext): SettingProblem[] {
  const definition = connectorDefinitions().find((d) => d.description.name === connector);
  if (definition === undefined)
    return [
      {
        setting: 'connector',
        message: `is not a connector of this server (${connectorDefinitions()
          .map((d) => d.description.name)
          .join(', ')})`,
      },
    ];
  return liveSettingsProblems(definition, settings, ctx);
}

/**
 * A connector's check (`Connector.check`), for an account or the environment's: its result, or
 * that it has none. Never throws: a connector that did is a failed check saying so.
 */
export async function checkConnector(connector: Connector): Promise<CheckResult> {
  if (connector.check === undefined) return { ok: false, detail: `${connector.provider} has no check` };
  try {
    return await connector.check();
  } catch (err) {
    return { ok: false, detail: `the check failed: ${(err as Error).message}` };
  }
}

/**
 * Checks every live account the environment's variables make (`providers list --check`): each
 * connector built, checked once and closed, its result by registry name with the time it ran.
 */
export async function checkEnvironmentAccounts(config: Pick<ProvidersConfig, 'mode' | 'providerEnv'>, deps: ConnectorDeps): Promise<Map<string, LastCheck>> {
  const settings = connectorSettings(config);
  const results = new Map<string, LastCheck>();
  for (const definition of connectorDefinitions()) {
    const own = settings[definition.description.name];
    if (own === undefined) continue;
    const connector = definition.create(own, deps);
    try {
      const at = deps.clock.now().toISOString();
      results.set(definition.description.name, { ...(await checkConnector(connector)), at });
    } finally {
      await connector.close();
    }
  }
  return results;
}

/**
 * The sandbox defaults the environment's live accounts run on (outside production, where they
 * never apply): each variable left unset whose default is a sandbox value, for the start to warn
 * about rather than apply silently.
 */
export function sandboxDefaultsInUse(config: Pick<ProvidersConfig, 'mode' | 'providerEnv'>): { variable: string; value: string; connector: string }[] {
  const settings = connectorSettings(config);
  const env = config.providerEnv ?? {};
  return connectorDefinitions().flatMap(({ description }) =>
    settings[description.name] === undefined
      ? []
      : description.settings
          .filter((s) => s.sandboxDefault === true && s.default !== undefined && (env[s.env] ?? '').trim() === '')
          .map((s) => ({ variable: s.env, value: s.default as string, connector: description.name })),
  );
}
