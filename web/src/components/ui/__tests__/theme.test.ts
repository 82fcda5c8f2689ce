import { createSystem, defaultConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';

import { config, system, UNUSED_PALETTES } from '../theme';

/** Chakra's own full system with the app's theme: what `system` must match where it has a recipe. */
const reference = createSystem(defaultConfig, config);

const chakraDir = '/node_modules/@chakra-ui/react/dist/esm/';
const chakraFiles = import.meta.glob<string>(
  [
    '/node_modules/@chakra-ui/react/dist/esm/index.js',
    '/node_modules/@chakra-ui/react/dist/esm/components/**/*.js',
  ],
  { query: '?raw', import: 'default', eager: true },
);
const appFiles = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/__tests__/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

function chakraFile(path: string): string {
  const source = chakraFiles[path];
  if (source === undefined) throw new Error(`no Chakra module ${path}`);
  return source;
}

/** `./a/b.js` seen from `components/x/y.js`, as a key of chakraFiles. */
function resolveRelative(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** The module each name exported by `@chakra-ui/react` comes from. */
function chakraExports(): Map<string, string> {
  const index = chakraFile(`${chakraDir}index.js`);
  const modules = new Map<string, string>();
  const namespaces = new Map<string, string>();
  for (const [, local, from] of index.matchAll(/^import \* as (\S+) from '([^']+)';$/gm)) {
    namespaces.set(local!, from!);
  }
  for (const [, names, from] of index.matchAll(/^export \{([^}]*)\}(?: from '([^']+)')?;$/gm)) {
    for (const spec of names!.split(',')) {
      const [local, exported = local] = spec.trim().split(/\s+as\s+/);
      const module = from ?? namespaces.get(local!);
      if (module) modules.set(exported!, resolveRelative(`${chakraDir}index.js`, module));
    }
  }
  return modules;
}

/** The recipe keys a Chakra module and the Chakra components it imports ask the system for. */
function recipeKeysOf(module: string): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const queue = [module];
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (seen.has(path) || !(path in chakraFiles)) continue;
    seen.add(path);
    const source = chakraFile(path);
    for (const [, key] of source.matchAll(/\bkey: "(\w+)"/g)) keys.add(key!);
    for (const [, specifier] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      queue.push(resolveRelative(path, specifier!));
    }
  }
  return keys;
}

/** Every value imported from `@chakra-ui/react` in the app's source. */
function chakraImportsOfApp(): Set<string> {
  const names = new Set<string>();
  for (const source of Object.values(appFiles)) {
    for (const [, specs] of source.matchAll(/import \{([^}]*)\} from '@chakra-ui\/react';/g)) {
      for (const spec of specs!.split(',')) {
        const name = spec.trim().split(/\s+as\s+/)[0]!;
        if (name && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

describe('Chakra system', () => {
  it('has the recipe of every Chakra component the app imports', () => {
    const exports = chakraExports();
    const imported = chakraImportsOfApp();
    expect(imported.size).toBeGreaterThan(10);
    expect(imported).toContain('Button');

    const missing: string[] = [];
    for (const name of imported) {
      const module = exports.get(name);
      if (!module) throw new Error(`@chakra-ui/react exports no ${name}`);
      for (const key of recipeKeysOf(module)) {
        if (reference.hasRecipe(key) && !system.hasRecipe(key)) missing.push(`${name} needs '${key}'`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no recipe that no component of the app uses', () => {
    const exports = chakraExports();
    const used = new Set([...chakraImportsOfApp()].flatMap((name) => [...recipeKeysOf(exports.get(name)!)]));
    const own = [
      ...Object.keys(system._config.theme?.recipes ?? {}),
      ...Object.keys(system._config.theme?.slotRecipes ?? {}),
    ];
    expect(own.filter((key) => !used.has(key))).toEqual([]);
  });

  it('finds the recipes a component uses through the components it is built from', () => {
    // Button shows a Spinner while loading; Checkbox draws a Checkmark.
    expect(recipeKeysOf(chakraExports().get('Button')!)).toEqual(new Set(['button', 'spinner']));
    expect(recipeKeysOf(chakraExports().get('Checkbox')!)).toContain('checkmark');
  });

  it("keeps Chakra's recipes, tokens and global styles as they are", () => {
    const recipes = Object.keys(system._config.theme?.recipes ?? {});
    const slotRecipes = Object.keys(system._config.theme?.slotRecipes ?? {});
    expect(recipes.length + slotRecipes.length).toBeGreaterThan(0);
    for (const key of recipes) expect(system.getRecipe(key), key).toEqual(reference.getRecipe(key));
    for (const key of slotRecipes) expect(system.getSlotRecipe(key), key).toEqual(reference.getSlotRecipe(key));

    const { recipes: _r, slotRecipes: _s, ...theme } = system._config.theme ?? {};
    const { recipes: _rr, slotRecipes: _rs, ...referenceTheme } = reference._config.theme ?? {};
    const withoutUnused = (colors: object | undefined) =>
      Object.fromEntries(
        Object.entries(colors ?? {}).filter(([name]) => !(UNUSED_PALETTES as readonly string[]).includes(name)),
      );
    expect(theme).toEqual({
      ...referenceTheme,
      tokens: { ...referenceTheme.tokens, colors: withoutUnused(referenceTheme.tokens?.colors) },
      semanticTokens: {
        ...referenceTheme.semanticTokens,
        colors: withoutUnused(referenceTheme.semanticTokens?.colors),
      },
    });
    expect({ ...system._config, theme: undefined }).toEqual({ ...reference._config, theme: undefined });
    // The global styles hold the tokens' CSS variables: compare with Chakra's without the palettes.
    const defaultTheme = defaultConfig.theme ?? {};
    const referenceWithoutUnused = createSystem(
      {
        ...defaultConfig,
        theme: {
          ...defaultTheme,
          tokens: { ...defaultTheme.tokens, colors: withoutUnused(defaultTheme.tokens?.colors) },
          semanticTokens: { ...defaultTheme.semanticTokens, colors: withoutUnused(defaultTheme.semanticTokens?.colors) },
        },
      },
      config,
    );
    expect(system._global).toEqual(referenceWithoutUnused._global);
  });

  it('leaves out only colour palettes that neither the app nor a recipe names', () => {
    for (const palette of UNUSED_PALETTES) {
      expect(reference.tokens.getByName(`colors.${palette}.500`), palette).toBeDefined();
      expect(system.tokens.getByName(`colors.${palette}.500`), palette).toBeUndefined();
      // e.g. `colorPalette="pink"`, `color: 'pink.fg'` or `{colors.pink.500}`
      const named = new RegExp(`['"{.]${palette}(?:['"}]|\\.[a-z0-9]+)`);
      for (const [file, source] of Object.entries(appFiles)) {
        if (file !== '/src/components/ui/theme.ts') expect(named.test(source), `${file}: ${palette}`).toBe(false);
      }
      const recipes = [
        ...Object.values(system._config.theme?.recipes ?? {}),
        ...Object.values(system._config.theme?.slotRecipes ?? {}),
      ];
      expect(recipes.length).toBeGreaterThan(0);
      for (const recipe of recipes) expect(named.test(JSON.stringify(recipe)), palette).toBe(false);
    }
  });
});
