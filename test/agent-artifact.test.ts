import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { adapter as openai } from '../agent/adapters/openai.js';
import { parseArtifactReply } from '../agent/builtin/artifact-parser.js';
import { startSite } from '../site/site.js';
import { reply } from '../testkit/fake-server.js';
import { agentTestbed, episode, fakeClient, PNG_SIGNATURE, scriptedUser, sentImages, SITE, STYLE } from './agent-support.js';

const artifact = (...files: [string, string][]) =>
  `<boltArtifact id="site" title="Bakery">\n${files
    .map(([p, c]) => (p === '$' ? `<boltAction type="shell">${c}</boltAction>` : `<boltAction type="file" filePath="${p}">\n${c}</boltAction>`))
    .join('\n')}\n</boltArtifact>`;

describe('the artifact parser', () => {
  test('files, with fences around the reply and inside an action', () => {
    const text = 'Here you go:\n```xml\n<boltArtifact id="a" title="t">\n<boltAction type="file" filePath="index.html">\n```html\n<h1>Hi</h1>\n```\n</boltAction>\n<boltAction type=\'file\' filePath="css/a.css">body{}</boltAction>\n</boltArtifact>\n```';
    const r = parseArtifactReply(text);
    assert.ok('action' in r, JSON.stringify(r));
    assert.deepEqual(r.action, {
      type: 'implement',
      files: [
        { path: 'index.html', content: '<h1>Hi</h1>\n' },
        { path: 'css/a.css', content: 'body{}\n' },
      ],
      deletes: [],
    });
  });

  test('deletes, CDATA, and shell actions that are skipped with a remark', () => {
    const text = '<boltArtifact id="a" title="t"><boltAction type="shell">npm install</boltAction><boltAction type="delete" filePath="old.html"/><boltAction type="file" filePath="a.js"><![CDATA[if (a < b && c) go();]]></boltAction></boltArtifact>';
    const r = parseArtifactReply(text);
    assert.ok('action' in r, JSON.stringify(r));
    assert.deepEqual(r.action, { type: 'implement', files: [{ path: 'a.js', content: 'if (a < b && c) go();\n' }], deletes: ['old.html'] });
    assert.match(r.remarks[0]!, /shell action "npm install" was not run/);
  });

  test('ask_user, screenshot_validated (with a path), finish', () => {
    assert.deepEqual(parseArtifactReply('Let me ask.\n<ask_user>\nWhich colour do you like?\n</ask_user>'), {
      action: { type: 'clarify', question: 'Which colour do you like?' },
      remarks: [],
    });
    assert.deepEqual(parseArtifactReply('<screenshot_validated/>'), { action: { type: 'verify', path: '/' }, remarks: [] });
    assert.deepEqual(parseArtifactReply('<screenshot_validated path="/menu.html" />'), { action: { type: 'verify', path: '/menu.html' }, remarks: [] });
    assert.deepEqual(parseArtifactReply('All done. <finish/>'), { action: { type: 'submit' }, remarks: [] });
    assert.deepEqual(parseArtifactReply('<finish></finish>'), { action: { type: 'submit' }, remarks: [] });
  });

  test('tags inside file contents do not count as actions', () => {
    const r = parseArtifactReply(artifact(['index.html', '<p>Press <finish/> to <ask_user>end</ask_user></p>\n']));
    assert.ok('action' in r && r.action.type === 'implement', JSON.stringify(r));
  });

  test('unclosed, partial, mixed, empty and unknown replies are refused with a reason', () => {
    const cases: [string, RegExp][] = [
      ['<boltArtifact id="a" title="t"><boltAction type="file" filePath="index.html"><h1>Hi', /<boltArtifact> is not closed/],
      ['<boltArtifact id="a"><boltAction type="file" filePath="a.html"><h1>Hi<boltAction type="file" filePath="b.html">x</boltAction></boltArtifact>', /<boltAction> for a\.html is not closed/],
      ['<ask_user>What colour?', /<ask_user> is not closed/],
      ['<ask_user>A?</ask_user><ask_user>B?</ask_user>', /one question per reply/],
      ['<ask_user>  </ask_user>', /empty/],
      ['<ask_user>Colour?</ask_user> <finish/>', /one kind of action per reply.*<ask_user> and <finish>/],
      [`${artifact(['index.html', 'x'])}\n<screenshot_validated/>`, /<boltArtifact> and <screenshot_validated>/],
      ['I will build a nice site.', /no action found/],
      ['<boltArtifact id="a"></boltArtifact>', /holds no <boltAction/],
      ['<boltArtifact id="a"><boltAction type="file">x</boltAction></boltArtifact>', /no filePath/],
      ['<boltArtifact id="a"><boltAction type="upload" filePath="x">x</boltAction></boltArtifact>', /unknown <boltAction type="upload">/],
      ['<screenshot_validated', /not closed/],
    ];
    for (const [text, reason] of cases) {
      const r = parseArtifactReply(text);
      assert.ok('invalid' in r, `accepted: ${text}`);
      assert.match(r.invalid, reason, text);
    }
    const cut = parseArtifactReply('<boltArtifact id="a"><boltAction type="file" filePath="a.html">', true);
    assert.ok('invalid' in cut && /cut off at the token limit/.test(cut.invalid));
  });
});

describe('the openai agent, artifact protocol', () => {
  const bed = agentTestbed();

  test('asks, writes an artifact, validates a screenshot, finishes; the site serves', async () => {
    bed.fake.script(
      reply.text('<ask_user>What is the name of your bakery?</ask_user>'),
      reply.text(`Sure.\n\`\`\`xml\n${artifact(['index.html', SITE], ['style.css', STYLE], ['$', 'npm run dev'])}\n\`\`\``),
      reply.text('<screenshot_validated/>'),
      reply.text('<ask_user>a</ask_user> and <finish/>'),
      reply.text('<finish/>'),
    );
    const agent = openai.create('artifact', { clients: { agent: fakeClient(bed.fake) } });
    const user = scriptedUser('Crumb & Co.');
    const { t, dir } = await episode(agent, bed.browser, { user });
    assert.equal(t.status, 'submitted', t.error);
    assert.deepEqual(t.counts, { clarify: 1, implement: 1, verify: 1, submit: 1, invalid: 1 });
    assert.equal(t.questionBeforeCode, true);
    assert.deepEqual(user.questions, ['What is the name of your bakery?']);

    const reqs = bed.fake.requests;
    assert.equal(reqs[0]!.body.tools, undefined, 'no tools are offered to a text-protocol model');
    assert.match(String(reqs[0]!.body.messages[0]!.content), /<boltArtifact id="site"/);
    assert.ok(reqs.every((r) => r.body.messages.every((m) => m.role !== 'tool')));
    assert.match(String(reqs[1]!.body.messages.at(-1)!.content), /The client answered: Crumb & Co\./);
    assert.match(String(reqs[2]!.body.messages.at(-1)!.content), /shell action "npm run dev" was not run[\s\S]*Written: index\.html, style\.css/);
    const images = sentImages(reqs[3]!);
    assert.equal(images.length, 1);
    assert.ok(images[0]!.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.match(String(reqs[4]!.body.messages.at(-1)!.content), /one kind of action per reply/);

    const site = await startSite(path.join(dir, 'workspace'));
    const page = await bed.browser.newPage();
    try {
      await page.goto(site.url);
      assert.equal(await page.locator('h1').textContent(), 'Crumb & Co');
      assert.equal(await page.locator('h1').evaluate((e) => getComputedStyle(e).color), 'rgb(0, 0, 255)');
    } finally {
      await page.close();
      await site.close();
    }
  });
});
