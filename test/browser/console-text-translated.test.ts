import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { en } from "../../console/src/i18n/catalogue-en.js";
import { zhCn } from "../../console/src/i18n/catalogue-zh-cn.js";

// Every word the console shows goes through i18next's t(): this walks the console's sources and fails on text a
// person would read that was written in place, and on a catalogue missing a key the other has or the code asks for.
const sourceFolder = path.resolve(import.meta.dirname, "../../console/src");

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "i18n" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

function flatKeys(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : flatKeys(value as object, `${prefix}${key}.`),
  );
}

// Attributes whose value a person never reads (they name, style or wire things).
const silentAttributes = new Set([
  "className",
  "name",
  "type",
  "autoComplete",
  "id",
  "htmlFor",
  "key",
  "role",
  "href",
  "list",
  "value",
  "defaultValue",
  "textAnchor",
  "fill",
  "stroke",
  "lang",
  "step",
  "viewBox",
]);
// Literals that are code, not prose: a string without a space and without a capital letter (paths, keys, enum
// values, CSS names), a camelCase name (form fields), or one of these spelled-out exceptions.
const codeLike = /^([^\sA-Z]*|[a-z]+([A-Z][a-z0-9]*)+)$/;
const allowed = new Set(["USD", "UTC"]);

/** Text a person would read that does not come from t(): JSX text, and string literals outside code positions. */
function findUntranslatedText(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    findings.push(`${path.basename(fileName)}:${line + 1}: ${JSON.stringify(text.trim())}`);
  };
  const isCodePosition = (node: ts.Node): boolean => {
    for (let current: ts.Node = node; current.parent; current = current.parent) {
      const parent = current.parent;
      if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent)) return true;
      if (ts.isCallExpression(parent) && current !== parent.expression) {
        const callee = parent.expression.getText(file);
        // t("key"), the typed client's paths, storage keys and DOM calls take codes; text to show never goes there.
        return callee === "t" ||
          /^(client|localStorage|sessionStorage|document|window|i18next)\b|\.(GET|POST|PUT|DELETE)$/.test(callee)
          ? true
          : isCodePosition(parent);
      }
      if (ts.isJsxAttribute(parent)) return silentAttributes.has(parent.name.getText(file));
      if (ts.isBinaryExpression(parent) && /^[!=]==?$/.test(parent.operatorToken.getText(file))) return true;
      if (ts.isCaseClause(parent) || ts.isElementAccessExpression(parent)) return true;
      if (ts.isPropertyAssignment(parent) && current === parent.name) return true;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) report(node, node.text);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const text = node.text;
      if (/\p{L}/u.test(text) && !codeLike.test(text) && !allowed.has(text) && !isCodePosition(node))
        report(node, text);
    }
    if (ts.isTemplateExpression(node)) {
      const pieces = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" ");
      if (/\p{L}{2,}/u.test(pieces) && !isCodePosition(node)) report(node, pieces);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

describe("console text", () => {
  it("has no text written in place of a t() call", () => {
    const findings = sourceFiles(sourceFolder).flatMap((file) =>
      findUntranslatedText(file, fs.readFileSync(file, "utf8")),
    );
    expect(findings).toEqual([]);
  });

  it("finds text written in place, in JSX, attributes and messages (the check itself)", () => {
    const findings = findUntranslatedText(
      "example.tsx",
      `export const A = () => <p aria-label="Close it" className="x y">Hello {t("a.b")}</p>;
       const notice = { text: \`Token \${name} created.\` };
       const B = () => <input placeholder="Name" name="name" data-label="Name" />;`,
    );
    expect(findings).toEqual([
      'example.tsx:1: "Close it"',
      'example.tsx:1: "Hello"',
      'example.tsx:2: "Token   created."',
      'example.tsx:3: "Name"',
      'example.tsx:3: "Name"',
    ]);
  });

  it("has the same keys in English and Chinese, and every key the code asks for", () => {
    expect(flatKeys(zhCn).sort()).toEqual(flatKeys(en).sort());
    const known = new Set(flatKeys(en).map((key) => key.replace(/_(one|other)$/, "")));
    const asked = sourceFiles(sourceFolder).flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/\bt\("([\w.]+)"/g)].map((match) => match[1]),
    );
    expect(asked.length).toBeGreaterThan(100);
    expect(asked.filter((key) => !known.has(key))).toEqual([]);
  });

  it("leaves no Chinese text equal to its English one, except names that read the same in both", () => {
    const english = new Map(flatKeys(en).map((key) => [key, lookUp(en, key)]));
    const same = flatKeys(zhCn).filter((key) => {
      const text = lookUp(zhCn, key);
      return text === english.get(key) && /[A-Za-z]{2,}/.test(text.replace(/\{\{\w+\}\}/g, ""));
    });
    expect(same).toEqual(["preferences.english"]);
  });
});

function lookUp(tree: object, key: string): string {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree) as string;
}
