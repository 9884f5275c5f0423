/**
 * A .NET `<app>.deps.json`, as .NET reads it (dotnet/runtime
 * src/libraries/Microsoft.Extensions.DependencyModel/src/DependencyContextJsonReader.cs):
 * `runtimeTarget.name`, and `libraries` keyed `<name>/<version>` with their `type`.
 */

export interface DepsLibrary {
  name: string;
  version: string;
  type: string;
}

export interface DepsJson {
  /** `.NETCoreApp,Version=v10.0/linux-x64`, or null when absent. */
  runtimeTarget: string | null;
  libraries: DepsLibrary[];
}

/** Parses a deps.json text; throws on text that is not JSON or has no `libraries` object. */
export function parseDepsJson(text: string): DepsJson {
  const json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Record<string, unknown>;
  const libraries = json.libraries;
  if (typeof libraries !== 'object' || libraries === null) throw new Error('no "libraries" object');
  const target = json.runtimeTarget as { name?: unknown } | undefined;
  return {
    runtimeTarget: typeof target?.name === 'string' ? target.name : null,
    libraries: Object.entries(libraries as Record<string, { type?: unknown }>).flatMap(([key, value]) => {
      const slash = key.lastIndexOf('/');
      if (slash <= 0) return [];
      return [{ name: key.slice(0, slash), version: key.slice(slash + 1), type: typeof value?.type === 'string' ? value.type : 'unknown' }];
    }),
  };
}
