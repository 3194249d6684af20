/**
 * Shared English word choices (`@great`, `@very`...) used inside the sentence pools, so the same
 * idea comes out in many everyday wordings.
 */
export const RULES_EN: Readonly<Record<string, readonly string[]>> = {
  great: [
    'great',
    'awesome',
    'amazing',
    'excellent',
    'fantastic',
    'outstanding',
    'wonderful',
    'top notch',
    'phenomenal',
    'great',
  ],
  very: ['very', 'really', 'super', 'extremely', 'so', 'very', 'really'],
  friendly: ['friendly', 'nice', 'pleasant', 'courteous', 'kind', 'polite', 'personable'],
  helpful: ['helpful', 'knowledgeable', 'professional', 'attentive', 'patient', 'thorough'],
  quick: ['quick', 'fast', 'speedy', 'efficient', 'prompt'],
  rude: ['rude', 'dismissive', 'condescending', 'short with me', 'unprofessional', 'snippy'],
  bad: ['terrible', 'horrible', 'awful', 'unacceptable', 'pathetic', 'lousy'],
  ridiculous: ['ridiculous', 'unacceptable', 'insane', 'absurd', 'crazy', 'a joke'],
  recommend: [
    'highly recommend',
    'would recommend',
    'definitely recommend',
    'recommend',
    '100% recommend',
  ],
  team: ['team', 'crew', 'staff', 'folks', 'people'],
  place: ['this place', 'this dealership', 'Stonebridge', 'this dealer', 'them'],
  honestly: ['honestly', 'to be honest', 'truthfully', 'I have to say', 'seriously'],
  always: ['always', 'every time', 'every single time', 'consistently'],
  happy: ['happy', 'pleased', 'satisfied', 'thrilled'],
  upset: ['frustrated', 'disappointed', 'upset', 'fed up', 'livid'],
  called: ['called', 'phoned', 'tried calling'],
  nobody: ['nobody', 'no one', 'not one person'],
  work: ['work', 'a job', 'service'],
  truck: ['truck', 'vehicle', 'car'],
  fast: ['fast', 'quickly', 'quick', 'in no time'],
};
