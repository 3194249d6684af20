/**
 * Where a run-on sentence starts its next clause. Survey answers are lower-cased and often run two
 * topics together with no punctuation between them ("they should make the booking easy it has to
 * be quick"), so the detector's clause reading would never see the second topic alone.
 */

/** The words of a space-separated list. */
function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/** Subject pronouns that can start a clause. */
const SUBJECTS = wordSet('it they we i he she you');

/** Finite verbs and modals that follow a clause's subject. */
const FINITE = wordSet(
  'should need needs must have has had is are was were will would can could did do does took ' +
    'takes take said say says told tell gave give made make may might shall am',
);

/**
 * Words after which a subject pronoun does not start a clause: conjunctions, prepositions,
 * pronouns, and verbs that take a clause after them ("they told me it was ready", "emailed to
 * confirm it was available").
 */
const NOT_BEFORE_SUBJECT = wordSet(
  'and or so that if when because as than whether what how where why which who whom said say ' +
    'says told tell think thought know knew feel felt then once until till since before after ' +
    'even also them us me him her you it they we i he she to of for with by from in on at about ' +
    'like hope wish mean means suggest expect want wanted guess sure ensure make let confirm ' +
    'confirmed check checked ask asked see saw seen verify found find noticed realized realised ' +
    'heard learned explained promised assured mentioned believe believed hoped understand ' +
    'understood agreed decided admitted claimed informed showed show',
);

/**
 * Whether word `i` of a sentence's normalised words starts a run-on sentence's next clause: a
 * subject pronoun followed by a finite verb or modal, after a word that is not clause punctuation
 * (in `punctuation`) nor in {@link NOT_BEFORE_SUBJECT}.
 */
export function startsRunOnClause(
  words: readonly string[],
  i: number,
  punctuation: ReadonlySet<string>,
): boolean {
  return (
    i > 0 &&
    SUBJECTS.has(words[i]!) &&
    FINITE.has(words[i + 1] ?? '') &&
    !NOT_BEFORE_SUBJECT.has(words[i - 1]!) &&
    !punctuation.has(words[i - 1]!)
  );
}
