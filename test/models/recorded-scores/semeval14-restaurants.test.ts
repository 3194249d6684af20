import { describe } from 'vitest';
import { checkRecordedFold } from './check.js';

describe('recorded benchmark scores', () => {
  checkRecordedFold('semeval14-restaurants');
});
