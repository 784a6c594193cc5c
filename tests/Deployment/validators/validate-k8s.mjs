// Validates Kubernetes objects against the schemas in kubernetes-models (npm), offline.
// Usage: node validate-k8s.mjs <directory holding node_modules>   (stdin: [{"source": "...", "object": {...}}, ...])
// Prints one JSON array: [{"source", "kind", "name", "error"}], error null when the object is valid.
// The C# tests (tests/Deployment) parse the YAML and call this; the script only maps apiVersion + kind to a model.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const models = join(process.argv[2] ?? '.', 'node_modules', 'kubernetes-models');
const input = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const { source, object } of input) {
  const { apiVersion = '', kind = '' } = object;
  const name = object.metadata?.name ?? null;
  // "v1" lives in v1/, "apps/v1" in apps/v1/, "policy/v1" in policy/v1/ ...
  const file = join(models, ...apiVersion.split('/'), `${kind}.js`);
  if (!apiVersion || !kind || !existsSync(file)) {
    results.push({ source, kind, name, error: `kubernetes-models has no schema for apiVersion "${apiVersion}", kind "${kind}"` });
    continue;
  }
  const model = (await import(pathToFileURL(file).href))[kind];
  try {
    new model(object).validate();
    results.push({ source, kind, name, error: null });
  } catch (error) {
    results.push({ source, kind, name, error: String(error.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(results));
