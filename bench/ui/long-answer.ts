/** The answer's last sentence: once it is on screen, the whole answer has been rendered. */
export const ANSWER_END = 'That is the whole migration plan, step by step.';

/**
 * A long model answer in the markdown a model writes: headings, paragraphs,
 * bullet and numbered lists, inline code, a table and fenced code. About four
 * characters per token, so `tokens` tokens are about 4 × `tokens` characters.
 */
export function longAnswer(tokens: number): string {
  const target = tokens * 4;
  const parts: string[] = ['Here is the plan for moving the billing service to the new database, with the checks for each step.\n'];
  let length = parts[0]!.length;
  for (let step = 1; length < target - ANSWER_END.length - 2; step++) {
    const section = [
      `## Step ${step}: migrate the \`invoices_${step}\` partition`,
      `Before anything moves, take a snapshot of partition ${step} and record its row count. The copy runs in batches of 5,000 rows ` +
        `so the primary never stalls for more than a few milliseconds, and each batch is checked against the snapshot's checksum ` +
        `before the next one starts. If a checksum differs, the batch is retried **once**; a second mismatch stops the step.`,
      `- Freeze writes to \`invoices_${step}\` for the final catch-up (about ${10 + (step % 20)} seconds).\n` +
        `- Copy the remaining rows and compare totals per customer.\n` +
        `- Switch the read path with the \`billing.read_from_new\` flag, then the write path.\n` +
        `- Keep the old partition read-only for *seven days* before dropping it.`,
      step % 3 === 0
        ? '```sql\n' +
          `SELECT customer_id, SUM(amount_cents) AS total\n  FROM invoices_${step}\n GROUP BY customer_id\n HAVING SUM(amount_cents) <> (\n  SELECT SUM(amount_cents) FROM invoices_new WHERE partition = ${step} AND customer_id = invoices_${step}.customer_id\n );\n` +
          '```'
        : step % 3 === 1
          ? `| check | expected | action on failure |\n| --- | --- | --- |\n| row count | equal | stop step ${step} |\n| checksum | equal | retry batch once |\n| p99 latency | < 40 ms | pause copy |`
          : `1. Announce the window in #billing-ops.\n2. Run the copy job \`migrate --partition ${step} --batch 5000\`.\n3. Watch the lag graph until it is flat, then flip the flag.`,
    ].join('\n\n');
    parts.push(section);
    length += section.length + 2;
  }
  parts.push(ANSWER_END);
  return parts.join('\n\n');
}
