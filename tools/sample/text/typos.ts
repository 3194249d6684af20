/**
 * Everyday misspellings and shorthand, as a word and its replacements. The noise step swaps them
 * in at a rate that depends on the reviewer's voice; staff names are never touched here (their
 * misspellings are chosen on purpose when the name is written).
 */
export const TYPOS: Readonly<Record<string, readonly string[]>> = {
  definitely: ['definately', 'definitly', 'defiantly'],
  recommend: ['reccomend', 'recomend', 'reccommend'],
  received: ['recieved'],
  appointment: ['appt', 'appointmet', 'apointment'],
  because: ['bc', 'cause', 'becuase'],
  you: ['u'],
  your: ['ur', "you're"],
  their: ['there'],
  than: ['then'],
  really: ['realy', 'rly'],
  until: ['untill', 'til'],
  through: ['thru'],
  separate: ['seperate'],
  professional: ['proffesional', 'profesional'],
  experience: ['experiance', 'exp'],
  service: ['servce', 'sevice'],
  vehicle: ['vehical', 'vehicel'],
  minutes: ['mins', 'minuets'],
  hours: ['hrs'],
  and: ['&', 'n'],
  please: ['pls', 'plz'],
  people: ['ppl'],
  tomorrow: ['tomorow'],
  everything: ['everythig', 'evrything'],
  knowledgeable: ['knowledgable', 'knowledgeble'],
  courteous: ['curteous', 'courtious'],
  excellent: ['excelent', 'excellant'],
  friendly: ['freindly', 'frendly'],
  great: ['grate', 'gr8'],
  the: ['teh', 'th'],
  with: ['w/', 'wit'],
};
