// Checks the game contract: the AsyncAPI document (with its file $refs resolved) has no error,
// and every example file, plus a few broken copies of them, meets or fails its JSON Schema.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Parser, fromFile } from '@asyncapi/parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const readJson = async (path) => JSON.parse(await readFile(here(path), 'utf8'));

// @stoplight/types DiagnosticSeverity
const severityNames = ['error', 'warning', 'information', 'hint'];
const ERROR = 0;

let failed = false;
const fail = (message) => {
  console.error(message);
  failed = true;
};

const { document, diagnostics } = await fromFile(new Parser(), here('./asyncapi.yaml')).parse();
for (const { severity, code, message, path } of diagnostics) {
  const where = path.length ? ` at ${path.join('.')}` : '';
  const line = `asyncapi.yaml: ${severityNames[severity]} ${code}: ${message}${where}`;
  if (severity === ERROR) fail(line);
  else if (severity === 1) console.warn(line);
}
const errors = diagnostics.filter((d) => d.severity === ERROR).length;
const warnings = diagnostics.filter((d) => d.severity === 1).length;
if (document) {
  const info = document.info();
  console.log(
    `asyncapi.yaml: AsyncAPI ${document.version()} "${info.title()}" ${info.version()}: ` +
      `${document.channels().length} channels, ${document.operations().length} operations, ` +
      `${document.messages().length} messages; ${errors} errors, ${warnings} warnings`,
  );
} else {
  fail(`asyncapi.yaml: not parsed (${errors} errors)`);
}

const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const compile = async (path) => {
  try {
    return ajv.compile(await readJson(path));
  } catch (error) {
    fail(`${path.slice(2)}: ${error.message}`);
    return null;
  }
};
const order = await compile('./schemas/recharge-order.json');
const result = await compile('./schemas/recharge-result.json');
const query = await compile('./schemas/character-query.json');
const answer = await compile('./schemas/character-answer.json');
const grant = await compile('./schemas/giftcode-grant.json');
const grantResult = await compile('./schemas/giftcode-result.json');
const outcome = await compile('./schemas/result-outcome.json');

const examples = [
  ['examples/order.json', order],
  ['examples/result-delivered.json', result],
  ['examples/result-failed.json', result],
  ['examples/character-query.json', query],
  ['examples/character-found.json', answer],
  ['examples/character-missing.json', answer],
  ['examples/giftcode-grant.json', grant],
  ['examples/giftcode-delivered.json', grantResult],
  ['examples/giftcode-failed.json', grantResult],
  ['examples/outcome-applied.json', outcome],
  ['examples/outcome-rejected.json', outcome],
  ['examples/outcome-no-message-id.json', outcome],
];
let valid = 0;
for (const [path, validate] of examples) {
  if (!validate) continue;
  if (validate(await readJson(`./${path}`))) valid += 1;
  else fail(`${path}: ${ajv.errorsText(validate.errors, { dataVar: 'message' })}`);
}

// Copies of the examples that the schemas must refuse, so a loosened rule does not go unseen.
const without = (object, key) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
const anOrder = await readJson('./examples/order.json');
const aFailure = await readJson('./examples/result-failed.json');
const aQuery = await readJson('./examples/character-query.json');
const aFind = await readJson('./examples/character-found.json');
const aGrant = await readJson('./examples/giftcode-grant.json');
const aGrantFailure = await readJson('./examples/giftcode-failed.json');
const anOutcome = await readJson('./examples/outcome-applied.json');
const refused = [
  ['an order without deliverBy', order, without(anOrder, 'deliverBy')],
  ['an order for zone 0', order, { ...anOrder, zoneId: 0 }],
  ['an order with a capitalised username', order, { ...anOrder, username: 'Tuan_Anh92' }],
  ['an order whose orderId is no UUID', order, { ...anOrder, orderId: 'order-1' }],
  ['a failed result without a reason', result, without(aFailure, 'reason')],
  ['a result of another status', result, { ...aFailure, status: 'pending' }],
  ['a result without occurredAt', result, without(aFailure, 'occurredAt')],
  ['a query without a zone', query, without(aQuery, 'zoneId')],
  ['a query whose messageId is no UUID', query, { ...aQuery, messageId: 'q-1' }],
  ['a found answer without a name', answer, without(aFind, 'name')],
  ['an answer without found', answer, without(aFind, 'found')],
  ['a grant without items', grant, { ...aGrant, items: [] }],
  ['a grant of 0 of an item', grant, { ...aGrant, items: [{ ...aGrant.items[0], quantity: 0 }] }],
  ['a grant without a zone', grant, without(aGrant, 'zoneId')],
  ['a failed grant result without a reason', grantResult, without(aGrantFailure, 'reason')],
  ['a grant result naming an order', grantResult, { ...without(aGrantFailure, 'grantId'), orderId: aGrant.grantId }],
  ['an outcome of another kind', outcome, { ...anOutcome, outcome: 'ignored' }],
  ['an outcome without a reason', outcome, without(anOutcome, 'reason')],
  ['an outcome whose orderId is no UUID', outcome, { ...anOutcome, orderId: 'order-1' }],
];
let refusedCount = 0;
for (const [what, validate, message] of refused) {
  if (!validate) continue;
  if (validate(message)) fail(`schemas: ${what} was accepted`);
  else refusedCount += 1;
}
console.log(
  `schemas: ${valid} of ${examples.length} examples valid, ` +
    `${refusedCount} of ${refused.length} broken copies refused` +
    (failed ? '' : '; game contract OK'),
);

process.exitCode = failed ? 1 : 0;
