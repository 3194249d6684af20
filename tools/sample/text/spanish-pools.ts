/**
 * Spanish sentences, each paired with the English a machine translation would show beside it
 * (Google adds one to Spanish reviews). The two templates of a pair have the same choices in the
 * same order, so one set of random picks writes both; a test checks the shapes match. Slots are
 * shared: `$carro` is "mi troca" in the review and "my truck" in the translation.
 */
type Pair = readonly [string, string];

/** Spanish opinions by aspect and polarity (era suffixes as in English). */
export const SPANISH_POOLS: Readonly<Record<string, readonly Pair[]>> = {
  'staff.pos': [
    [
      '$staff {nos atendió|me atendió} {muy bien|excelente} y {me explicó todo|fue muy amable}',
      '$staff {helped us|helped me} {very well|excellently} and {explained everything to me|was very kind}',
    ],
    [
      '{gracias a|muchas gracias a} $staff por {su paciencia|toda su ayuda}',
      '{thanks to|many thanks to} $staff for {their patience|all their help}',
    ],
    [
      '$bilingual {habla español|nos explicó todo en español} y eso {nos ayudó mucho|hizo todo más fácil}',
      '$bilingual {speaks Spanish|explained everything to us in Spanish} and that {helped us a lot|made everything easier}',
    ],
    [
      '$tech {hizo un excelente trabajo|sabe mucho} y {es muy honesto|me mostró las piezas viejas}',
      '$tech {did an excellent job|knows a lot} and {is very honest|showed me the old parts}',
    ],
    ['el personal es muy {amable|atento}', 'the staff is very {kind|attentive}'],
    [
      '$sales fue muy {atent$sales:o|paciente} con {mis papás|mi esposa|nosotros}',
      '$sales was very {attentive|patient} with {my parents|my wife|us}',
    ],
  ],
  'staff.neg': [
    [
      '{nadie|ninguna persona} me {regresó la llamada|devolvió la llamada}',
      '{nobody|no one} {called me back|returned my call}',
    ],
    [
      '$onlyService{el asesor|la persona de servicio} fue muy {grosero|mal educado} conmigo',
      '$onlyService{the advisor|the service person} was very {rude|impolite} with me',
    ],
    [
      '$onlyService{no|nunca} me {explicaron|dijeron} qué le hicieron a $carro',
      '$onlyService{they did not|they never} {explain|tell me} what they did to $carro',
    ],
    [
      '$onlySale{el vendedor|el gerente} {no nos hizo caso|nos trató mal}',
      '$onlySale{the salesman|the manager} {ignored us|treated us badly}',
    ],
  ],
  'wait-time.pos': [
    [
      '{fue|todo fue} muy {rápido|rápido}, en menos de una hora {estaba listo|terminaron}',
      '{it was|everything was} very {fast|quick}, in less than an hour {it was ready|they finished}',
    ],
    ['no tuve que esperar {mucho|casi nada}', 'I did not have to wait {long|hardly at all}'],
  ],
  'wait-time.neg': [
    ['{esperé|estuve esperando} $horas para $svc', '{I waited|I was waiting} $horas for $svc'],
    [
      '{tenía cita|hice cita} y {aun así|de todos modos} esperé $horas',
      '{I had an appointment|I made an appointment} and {even so|anyway} I waited $horas',
    ],
    [
      '{tardaron|se tardaron} $dias con $carro y nadie me decía nada',
      '{they took|they spent} $dias with $carro and nobody told me anything',
    ],
  ],
  'wait-time.neg.shortstaffed': [
    [
      'me dijeron que {les faltan mecánicos|no tienen suficientes técnicos} y por eso {tardan tanto|todo va lento}',
      'they told me {they are short on mechanics|they do not have enough technicians} and that is why {it takes so long|everything is slow}',
    ],
  ],
  'price-value.pos': [
    [
      'el precio {fue justo|estuvo bien|fue menos de lo que esperaba}',
      'the price {was fair|was good|was less than I expected}',
    ],
  ],
  'price-value.neg': [
    [
      '$onlyService{muy caro|carísimo} para {lo que hicieron|un trabajo tan sencillo}',
      '$onlyService{very expensive|super expensive} for {what they did|such a simple job}',
    ],
    [
      '$onlySale{le agregaron|nos cobraron} {cosas extras|accesorios} que {nadie nos explicó|no pedimos}',
      '$onlySale{they added|they charged us for} {extra things|accessories} that {nobody explained to us|we did not ask for}',
    ],
    ['me cobraron $bill por $svc', 'they charged me $bill for $svc'],
  ],
  'quality-of-work.pos': [
    [
      '$onlyService{arreglaron|resolvieron} el problema {a la primera|rápido}',
      '$onlyService{they fixed|they solved} the problem {the first time|quickly}',
    ],
    [
      '$onlyService$carro {quedó como nuevo|quedó muy bien}',
      '$onlyService$carro {was left like new|turned out great}',
    ],
  ],
  'quality-of-work.neg': [
    [
      '$onlyService{el mismo problema|la misma falla} {regresó|volvió} {a los dos días|a la semana}',
      '$onlyService{the same problem|the same fault} {came back|returned} {two days later|a week later}',
    ],
  ],
  'scheduling.pos.online': [
    [
      '{hice la cita|agendé la cita} {en línea|por internet} {muy fácil|en dos minutos}',
      '{I made the appointment|I scheduled the appointment} {online|on the internet} {very easily|in two minutes}',
    ],
    [
      'me mandaron un {mensaje|texto} para recordarme la cita',
      'they sent me a {message|text} to remind me of the appointment',
    ],
  ],
  'scheduling.neg': [
    [
      '{llamé|marqué} {tres|varias} veces para hacer una cita y nadie contestó',
      '{I called|I dialed} {three|several} times to make an appointment and nobody answered',
    ],
  ],
  'honesty-trust.pos': [
    [
      '{son muy honestos|es gente honesta}, no {te venden|intentan venderte} cosas que no necesitas',
      '{they are very honest|they are honest people}, they do not {sell you|try to sell you} things you do not need',
    ],
  ],
  'honesty-trust.neg': [
    [
      '{me quisieron|trataron de} cobrar {cosas|reparaciones} que no {necesitaba|pedí}',
      '{they wanted to|they tried to} charge me for {things|repairs} I did not {need|ask for}',
    ],
  ],
  'sales-experience.pos': [
    [
      'todo fue muy {fácil|rápido} y {no nos presionaron|nos trataron muy bien}',
      'everything was very {easy|fast} and {they did not pressure us|they treated us very well}',
    ],
    [
      '$sales nos {ayudó a encontrar|consiguió} {justo la troca que queríamos|el color que queríamos}',
      '$sales {helped us find|got us} {exactly the truck we wanted|the color we wanted}',
    ],
  ],
  'sales-experience.neg': [
    [
      '{nos tuvieron|estuvimos} {todo el día|seis horas} {ahí|en la agencia} para {firmar|nada}',
      '{they kept us|we were} {all day|six hours} {there|at the dealership} to {sign|for nothing}',
    ],
    [
      'el precio {cambió|subió} cuando {nos sentamos|fuimos a firmar}',
      'the price {changed|went up} when {we sat down|we went to sign}',
    ],
  ],
  'financing.pos': [
    [
      '$fin nos ayudó con {el crédito|el financiamiento} y {nos aprobaron|salimos con un buen pago}',
      '$fin helped us with {the credit|the financing} and {we got approved|we left with a good payment}',
    ],
  ],
  'financing.neg': [
    [
      '{en finanzas|en la oficina de finanzas} {nos querían vender|insistieron con} {una garantía extendida|seguros} que no queríamos',
      '{in finance|in the finance office} {they wanted to sell us|they kept pushing} {an extended warranty|insurance} we did not want',
    ],
  ],
  'follow-up.neg': [
    [
      '$onlySale{todavía|aún} estoy esperando {las placas|el título}',
      '$onlySale{still|I am still} waiting for {the plates|the title}',
    ],
  ],
  'facility-amenities.pos': [
    [
      'la sala de espera {es muy cómoda|está muy limpia} y {hay café|tienen café}',
      'the waiting room {is very comfortable|is very clean} and {there is coffee|they have coffee}',
    ],
  ],
  'loaner.neg': [
    ['{no había|no tenían} carros de préstamo', '{there were no|they had no} loaner cars'],
  ],
};

/** Why the customer came in, for service visits. */
export const SPANISH_CONTEXT_SERVICE: readonly Pair[] = [
  ['{llevé|traje} $carro para $svc', '{I took|I brought} $carro for $svc'],
  [
    'fui a {hacerle|que le hicieran} $svc a $carro',
    'I went {to do|to have them do} $svc on $carro',
  ],
  ['{necesitaba|tenía que hacer} $svc', '{I needed|I had to do} $svc'],
];

/** Why the customer came in, for purchases. */
export const SPANISH_CONTEXT_SALES: readonly Pair[] = [
  [
    '{compramos|acabamos de comprar} $nuevo {con $sales|aquí}',
    '{we bought|we just bought} $nuevo {with $sales|here}',
  ],
  [
    '{fuimos|vinimos} {desde $ciudad|de lejos} para ver $nuevo',
    '{we went|we came} {from $ciudad|from far away} to see $nuevo',
  ],
];

/** Edit paragraphs, by kind of edit. */
export const SPANISH_UPDATES: Readonly<Record<'raised' | 'lowered' | 'thanks', readonly Pair[]>> = {
  raised: [
    [
      'ACTUALIZACIÓN: {el gerente|la gerente} me llamó y {lo arreglaron|me devolvieron el dinero}. Le subo las estrellas.',
      'UPDATE: {the manager|the manager} called me and {they fixed it|they refunded my money}. I am raising the stars.',
    ],
  ],
  lowered: [
    [
      'ACTUALIZACIÓN: {el problema regresó|la falla volvió} {a la semana|a los pocos días}. Le bajo las estrellas.$onlyService',
      'UPDATE: {the problem came back|the fault returned} {a week later|a few days later}. I am lowering the stars.$onlyService',
    ],
    [
      'ACTUALIZACIÓN: {un mes después|seis semanas después} {todavía no tengo las placas|nadie me da el título}. Le bajo las estrellas.$onlySale',
      'UPDATE: {a month later|six weeks later} {I still do not have the plates|nobody gives me the title}. I am lowering the stars.$onlySale',
    ],
  ],
  thanks: [
    [
      'Editado: {también quiero agradecer a|gracias también a} $staff.',
      'Edited: {I also want to thank|thanks also to} $staff.',
    ],
  ],
};

/** Last sentences, by tone. */
export const SPANISH_CLOSERS: Readonly<Record<'pos' | 'neg', readonly Pair[]>> = {
  pos: [
    [
      '{se los recomiendo|los recomiendo mucho}',
      '{I recommend them to you|I highly recommend them}',
    ],
    ['100% recomendado', '100% recommended'],
    [
      '{vamos a regresar|volveremos} {sin duda|seguro}',
      '{we are going to come back|we will return} {without a doubt|for sure}',
    ],
    ['{gracias|muchas gracias} $staff', '{thanks|thank you very much} $staff'],
  ],
  neg: [
    ['{nunca más|jamás} {vuelvo|regreso}', '{never again|never} {will I come back|will I return}'],
    ['no {se los recomiendo|los recomiendo}', 'I do not {recommend them to you|recommend them}'],
  ],
};

/** One-line reviews, by tone. */
export const SPANISH_TINY: Readonly<Record<'pos' | 'neg' | 'mid', readonly Pair[]>> = {
  pos: [
    ['excelente servicio', 'excellent service'],
    ['{muy buena atención|muy buen servicio}', '{very good attention|very good service}'],
    ['{excelente|muy buena} atención de $staff', '{excellent|very good} attention from $staff'],
    ['todo muy bien, gracias', 'everything very good, thank you'],
    ['{me encantó|nos encantó} el servicio', '{I loved|we loved} the service'],
  ],
  neg: [
    ['{pésimo|muy mal} servicio', '{terrible|very bad} service'],
    ['{muy lentos|tardan mucho}', '{very slow|they take a long time}'],
  ],
  mid: [
    ['bien pero {tardaron mucho|caro}', 'good but {they took a long time|expensive}'],
    ['{regular|más o menos}', '{average|so-so}'],
  ],
};
