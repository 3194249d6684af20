import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelledLines } from '../../tools/absa/internal/survey-eval.js';
import { requireSharedData, sharedDataDir } from '../../tools/paths.js';
import { DEALERSHIP_CATEGORIES } from '../../src/insights/absa/index.js';
import {
  dealershipData,
  readDealershipLabels,
  repoRoot,
  WEAK_WEIGHT,
} from '../../tools/absa/training/index.js';
import {
  surveyComments,
  surveyWeakLabels,
  weakCategories,
  weakSentenceCategories,
} from '../../tools/absa/training/survey-labels.js';

/**
 * Issue 32: the survey evaluation is honest only if training never reads the held-out quarter.
 * The shipped model's weak labels come from `surveyWeakLabels` (through `dealershipData`).
 */
describe('the survey comments the dealership model trains on', () => {
  requireSharedData();
  const comments = surveyComments(sharedDataDir());
  const weak = surveyWeakLabels(sharedDataDir(), new Set(), 0.2);
  const trainedLines = new Set(weak.map((s) => s.id.split('@')[0]));

  it('leave out every held-out comment and keep every other one that says something', () => {
    const heldOut = comments.filter((c) => c.heldOut);
    expect(heldOut.length).toBeGreaterThan(1400);
    expect(heldOut.filter((c) => trainedLines.has(c.key))).toEqual([]);
    const kept = comments.filter((c) => !c.heldOut && !c.nothingToImprove);
    expect(kept.filter((c) => !trainedLines.has(c.key))).toEqual([]);
  });

  it('label whole lines by hand only in the training part', () => {
    // Issue 32's sixth pass labelled every training line of questions 1, 3 and 5 (detection only);
    // the held-out quarter it is scored on must not be among them.
    const { gold } = dealershipData({ weakWeight: 0, transferWeight: 0, seed: false });
    const whole = labelledLines(gold.filter((s) => s.detectionOnly));
    expect(whole.size).toBeGreaterThan(500);
    expect(comments.filter((c) => c.heldOut && whole.has(c.key))).toEqual([]);
  });

  it.each([
    ['dealership-sentences-q2.jsonl', 602],
    ['dealership-sentences-q8.jsonl', 949],
  ])('keep the labels of %s valid and out of the held-out quarter', (file, n) => {
    const { train, test } = readDealershipLabels(
      join(repoRoot(), 'data-labels', file),
      sharedDataDir(),
    );
    expect(test).toEqual([]);
    expect(train.length).toBe(n);
    const lines = labelledLines(train);
    expect(comments.filter((c) => c.heldOut && lines.has(c.key))).toEqual([]);
  });

  it("train question 8's hand labels for wait time alone, beside the same lines' weak labels", () => {
    const { train } = dealershipData({ weakCleaning: null, transferWeight: 0, seed: false });
    const handLabelled = train.filter((s) => s.id.includes('/q8.txt#') && s.weight === 1);
    expect(handLabelled).toHaveLength(949);
    for (const s of handLabelled) {
      expect(s.unlabelled).toHaveLength(DEALERSHIP_CATEGORIES.length - 1);
      expect(s.unlabelled).not.toContain('wait-time');
      expect(s.aspects.every((a) => a.category === 'wait-time')).toBe(true);
    }
    // Some say nothing of wait time: negatives of it at a hand label's weight, where their line's
    // weak label still calls them positives at 0.12.
    expect(handLabelled.filter((s) => s.aspects.length === 0).length).toBeGreaterThan(100);
    const lines = new Set(handLabelled.map((s) => s.id.split('@')[0]));
    const weakOfThem = train.filter(
      (s) => s.weight === WEAK_WEIGHT && lines.has(s.id.split('@')[0]),
    );
    expect(weakOfThem.length).toBeGreaterThan(handLabelled.length / 2);
  });

  it('rotate the held-out quarter for survey-cv: four quarters, each comment in exactly one', () => {
    const quarters = [0, 1, 2, 3].map((q) => surveyComments(sharedDataDir(), q));
    expect(quarters[0]).toEqual(comments);
    const heldBy = new Map<string, number[]>();
    quarters.forEach((all, q) =>
      all
        .filter((c) => c.heldOut)
        .forEach((c) => heldBy.set(c.key, [...(heldBy.get(c.key) ?? []), q])),
    );
    expect(heldBy.size).toBe(comments.length);
    expect([...heldBy.values()].filter((qs) => qs.length !== 1)).toEqual([]);
  });

  it('train a survey-cv model on no line of its quarter, hand-labelled lines included', () => {
    const quarter = 2;
    const held = new Set(
      surveyComments(sharedDataDir(), quarter)
        .filter((c) => c.heldOut)
        .map((c) => c.key),
    );
    const shipped = dealershipData({ weakCleaning: null, transferWeight: 0, seed: false });
    const lines = (sentences: readonly { id: string }[]): string[] =>
      sentences.map((s) => s.id.split('@')[0]!).filter((line) => held.has(line));
    // The shipped model trains on this quarter: hand labels of questions 1, 3 and 5, weak labels.
    expect(lines(shipped.train).length).toBeGreaterThan(1000);
    const rotated = dealershipData({
      weakCleaning: null,
      transferWeight: 0,
      seed: false,
      surveyQuarter: quarter,
    });
    expect(lines(rotated.train)).toEqual([]);
    expect(rotated.train.length).toBeGreaterThan(shipped.train.length / 2);
  });

  it('read question 4 as condition as well as cleanliness when no cleaning word is named', () => {
    expect(weakCategories({ question: 4, text: 'car wash was not done properly .' })).toEqual([
      'vehicle-cleanliness',
    ]);
    expect(weakCategories({ question: 4, text: 'they should inspect the car well .' })).toEqual([
      'vehicle-cleanliness',
      'quality-of-work',
    ]);
    expect(weakCategories({ question: 5, text: 'they should inspect the car well .' })).toEqual([
      'quality-of-work',
    ]);
  });

  it('read a sentence about informing or explaining as staff communication too', () => {
    const waiting = { question: 8, text: 'it took five hours . they should inform the time .' };
    expect(weakSentenceCategories(waiting, 'they should inform the time .')).toEqual([
      'wait-time',
      'staff-communication',
    ]);
    expect(weakSentenceCategories(waiting, 'it took five hours .')).toEqual(['wait-time']);
    const told = { question: 8, text: 'they told me two hours , it took five .' };
    expect(weakSentenceCategories(told, told.text)).toEqual(['wait-time']);
    const explained = { question: 3, text: 'they should explain the work .' };
    expect(weakSentenceCategories(explained, explained.text)).toEqual(['staff-communication']);
  });
});
