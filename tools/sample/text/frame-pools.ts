/**
 * The frame of an English review: why the customer came (per department, and per service for
 * the symptom that brought the car in), how they open and close, the personal asides of long
 * reviews, one-line reviews, and the "UPDATE:" paragraphs of edited ones.
 */

/** Why the customer came in, for service visits (the service named through `$svc`). */
export const CONTEXT_SERVICE: readonly string[] = [
  '{brought $car in|took $car in|dropped $car off} for $svc',
  '{came in|went in} for $svc{ this morning| on $dow| last week|}',
  '{had|got} $svc {done|} {here|today|this morning|on $dow}',
  'made an appointment for $svc',
  '{needed|was due for} $svc{ and they got me right in|}',
  'first time bringing $car here{ for $svc|}',
  'came in for $svc and $svc2',
  'dropped $car off for $svc and $svc2{ on $dow|}',
  'needed $svc and $svc2 so I {booked|made} an appointment',
];

/** Symptom sentences that name the service; keyed by catalogue id. */
export const CONTEXT_BY_SERVICE: Readonly<Record<string, readonly string[]>> = {
  brakes: [
    '{my|the} brakes {were grinding|started squeaking|were making a horrible noise}{ every time I stopped|}',
    'the brake pedal felt soft so I had them check the brakes',
  ],
  'air-conditioning': [
    '{my|the} {A/C|AC|air conditioning} {was blowing hot air|quit|stopped working} {in the middle of July|right before our beach trip|on the hottest day of the year}',
  ],
  diagnostics: [
    '{my|the} check engine light {came on|was flashing|kept coming on}{ on the way to work|}',
    '$car {was running rough|started shaking at idle|lost power on the highway} so I brought it in for a diagnostic',
  ],
  battery: [
    '{woke up to|had} a dead battery {in the driveway|at work}{ on a cold morning|}',
    '$car would not start so I {had it towed in|came in} for a new battery',
  ],
  tires: [
    '{picked up|ran over} a nail {on the highway|in a parking lot} and {needed a tire repair|ended up needing new tires}',
  ],
  alignment: ['$car was pulling to the {right|left} so I {came in for|needed} an alignment'],
  'state-inspection': [
    '{needed|was due for} my state inspection{ before my registration ran out| before my tags expired|}',
  ],
  recall: [
    'got a {recall notice|letter about a safety recall} {in the mail|for my $model} and {made an appointment|brought it in}',
  ],
  warranty: [
    '$car {had|developed} {a leak|a rattle in the dash|an electrical issue} {that was|and luckily it was} still under warranty',
  ],
  transmission: [
    '$car {started slipping|was shifting hard|was jerking} {between gears|from second to third} and {I was afraid it was the transmission|it turned out to be the transmission}',
  ],
  coolant: [
    '$car was {overheating|leaking coolant|leaking antifreeze} {on my commute|in the driveway}',
  ],
  'key-fob': [
    '{lost|my dog chewed up} my {only key|key fob} and {needed a spare key|needed a new key fob programmed}',
  ],
  'software-update': [
    '{the|my} infotainment screen {kept freezing|went black|would not connect to my phone}',
  ],
  detailing: [
    "{got|booked} a full detail {before selling|for my wife's birthday|after a road trip with three kids}",
  ],
  'scheduled-maintenance': [
    '$car was due for {the 60k service|its 30k service|scheduled maintenance}',
  ],
  'oil-change': [
    '{was overdue for|needed} an oil change',
    'oil change light came on so I {stopped in|made an appointment}',
  ],
  'body-repair': [
    '{someone|a guy on his phone} rear-ended me {on I-40|at a red light} and {my insurance sent me to|I brought it to} their {body shop|collision center}',
    '{someone|a lady in a minivan} backed into me in a parking lot and {my insurance sent me to|I brought it to} their {body shop|collision center}',
    '{I hit a deer|a deer ran out in front of me} on {US-401|a back road} and {my insurance sent me to|I brought it to} their {body shop|collision center}',
  ],
  'parts-counter': [
    '{went to|stopped by|called} the parts {counter|department|desk} {for|looking for} {a side mirror|all-weather floor mats|a trailer hitch|a tailgate handle|running boards|wheel locks}',
  ],
};

/** Why the customer came in, for purchases. */
export const CONTEXT_SALES: readonly string[] = [
  '{bought|purchased|just picked up} $newcar {from $sales|here|last week|on $dow}',
  '{we|I} traded in $trade {for|on} $newcar',
  '{came in|stopped by} {just to look|to test drive a $model} and {drove home in one|left with $newcar}',
  '{this is|this was} our {second|third|fourth} {vehicle|purchase} from {Stonebridge|this dealership}',
  '{found|saw} $newcar {online|on their website|on Cars.com} and {called|emailed} {to make sure it was still there|for an out the door price}',
  '{drove|came} {up|down|over} from $city {to look at|for} $newcar',
  '{we|my husband and I|my wife and I} {were shopping for|needed} a {bigger|safer|newer} {$vehicle|family car} and ended up with $newcar',
];

/** Why the customer came in, for leases. */
export const CONTEXT_LEASE: readonly string[] = [
  '{leased|just leased} $newcar{ from $sales|}',
  '{my|our} lease was up {so we|and we} {turned it in|traded it} for $newcar',
];

/** Why the customer came in, when financing was the point of the visit. */
export const CONTEXT_FINANCE: readonly string[] = [
  '{my credit is not great|I have been rebuilding my credit} and {I was nervous about financing|other dealers turned me down}',
  '{bought|purchased} $newcar and {went through|did} financing with $fin',
  '{came in|went in} to {refinance|finance} $newcar',
  'first time buying a car on my own{ and financing scared me|}',
];

/** First sentences, by tone. */
export const OPENERS: Readonly<Record<'pos' | 'neg' | 'any', readonly string[]>> = {
  pos: [
    'I do not usually write reviews but {this place deserves one|I had to for this one}',
    '{I have been|We have been} {coming here|bringing our cars here|buying from them} {for years|since 2015|for over 10 years}',
    'what a {great|pleasant} experience',
    'cannot say enough good things about {this dealership|Stonebridge}',
    '{wow|WOW}',
    'I have bought {cars|vehicles} from {a lot of|plenty of} dealers and this {was the best|is the best} {by far|experience yet}',
    '{just|I just} wanted to {share|leave a review about} {my experience|how good this was}',
    '{five|5} stars {is not enough|for this place}',
    'had to come back and {write this|leave a review}',
  ],
  neg: [
    'I {really |}wanted to like this place',
    'I am so {@upset|disappointed}',
    'buyer beware',
    '{I rarely write bad reviews|I never leave bad reviews} but {this one is warranted|I have to warn people}',
    'where do I even start',
    'I am {writing this|leaving this review} {so others know|as a warning}',
    '{this was|this is} {by far|hands down} the worst dealership experience I have ever had',
    'I have never left a {bad|one star} review {before|until now}',
    '{buckle up|grab a coffee}, this is a long one',
    '{very|extremely} {frustrated|disappointed} {right now|with this place}',
  ],
  any: [
    'first time {at this dealership|here|using their service department}',
    'long review, sorry',
    'been a customer {for years|since we moved here}',
    '{we|I} {live|moved} {nearby|here from out of state} and this is {our|my} closest dealer',
    'writing this {a few days after|the day after} my visit',
    '{I have had|I bought} my $model {for|about} {two|three|five} years now',
    '{so|ok so}',
  ],
};

/** Last sentences, by tone. */
export const CLOSERS: Readonly<Record<'pos' | 'neg' | 'mid', readonly string[]>> = {
  pos: [
    '{will|I will|we will} {definitely |}be back',
    '@recommend{ this dealership| them| this place|}',
    'thanks again{ $staff|}',
    'ask for $staff{, you will not regret it|}',
    '{10/10|five stars|5 stars} {would recommend|all day}',
    '{this is|they are} my {go-to|dealership} {from now on|for life}',
    "keep up the {good|great} work{ guys| y'all|}",
    '{cannot say enough good things|cannot recommend them enough}',
    'thank you $staff',
    '{we will|I will} be back for {our next car|my next service|the next oil change}',
    '{they earned|you earned} a customer for life',
    "{will not|won't} go anywhere else",
    '{highly|} recommend {asking for $staff|Stonebridge to anyone in the area}',
    '{five|5} stars {well deserved|all the way}',
    'this is how a dealership should {run|be run}',
    '{glad|so glad} I found {this place|them}',
    'I will be telling {all my friends|everyone at work|my family}',
    "{great job|well done}{ everyone| guys| y'all|}",
    '{worth the drive|worth every mile}{ from $city|}',
    'thank you {Stonebridge|guys|team}',
  ],
  neg: [
    '{I will|we will} {never|not} {be back|return|buy from here again}',
    '{take your business elsewhere|go somewhere else|avoid at all costs}',
    '{do better|you have lost a customer|lost a loyal customer}',
    '{buyer beware|customers beware}',
    '{zero|0} stars if I could',
    '{save yourself the headache|do not waste your time}',
    '{I am|we are} done with {this place|Stonebridge}',
    'this {dealership|service department} needs new management',
    'I will be {contacting GM corporate|calling GM customer care|filing a complaint}',
    'there are plenty of other {Chevy|GM} dealers {in the Triangle|around here}',
    '{do yourself a favor|trust me} and go somewhere else',
    '{read|look at} the other {bad|one star} reviews, they are not exaggerating',
    '{I expected|we expected} better from a {dealership this size|GM dealer}',
    '{stay away|run}',
  ],
  mid: [
    '{might|may} give them another {try|chance}',
    '{we will see|hopefully next time is better}',
    '{not terrible|not the worst} but {not great either|room for improvement}',
    '{it is|they are} {ok|fine} for {oil changes|the quick stuff}{ I guess|}',
    '{they could be great|they have potential} if they fixed the {communication|wait times}',
    '{3|three} stars {for now|until they fix the phones}',
    '{not sure|do not know} if I will be back',
    'the work was fine, {the process|everything around it} {not so much|needs work}',
  ],
};

/** Personal asides of longer reviews; tone-neutral. */
export const ASIDES: readonly string[] = [
  '{my kids|my son|my daughter} {loved the popcorn|could not stop playing with the touchscreen|thought the loaner was the coolest thing ever}',
  '{I am|as} a {single mom|nurse working nights|teacher|veteran|small business owner} {so my time matters|and I do not have all day to sit at a dealership}',
  '{we|I} drove {45 minutes|an hour|from $city} {to come here|because of the reviews}',
  'this is our {third|fourth} {vehicle|$make} from {them|this dealership}',
  '{my dad|my father|my grandpa} {bought|has bought} {all his trucks|his trucks} here {for 20 years|since the 90s}',
  '{I|we} live in $city so it is a {bit of a drive|haul} but {worth it|whatever}',
  'I work from home so {I brought my laptop|I worked in the lounge}',
  '{my wife|my husband} {usually|normally} handles the car stuff so this was {new for me|my first time}',
  '{side note|also}, {the|their} {website|app} {actually works|is easy to use}',
  '{it was|they were} {pouring rain|100 degrees out} {and|but} {someone walked me to my car with an umbrella|they pulled it up to the door}',
  'I {had my dog with me|brought my toddler} and {nobody minded|they were great about it}',
  'I {drive for a living|put a lot of miles on my $vehicle} so {I need it running|downtime costs me money}',
  '{we are|I am} a {two|three} $make family',
  '{parking was easy|the lot was packed} {on a Saturday|that morning}',
  '{my neighbor|a coworker|my sister} {recommended|told me about} {them|this place}',
  'I {bought|got} my $model {somewhere else|out of state} but {service here|I bring it here}',
];

/** One-line reviews, by tone. */
export const TINY: Readonly<Record<'pos' | 'neg' | 'mid', readonly string[]>> = {
  pos: [
    '@great service',
    'excellent service',
    'fast and friendly',
    '{very|extremely} professional',
    '{always|} a great experience',
    'quick and easy',
    'love {this place|this dealership}',
    'best dealership around',
    'good experience',
    'great people',
    '$staff is the best',
    'thanks $staff',
    'ask for $staff',
    'quick $svcb, friendly staff',
    'good',
    'awesome',
    'super @helpful staff',
    '10/10',
    'easy in and out',
    'great customer service',
    'friendly staff',
    'very satisfied',
    '$staff {rocks|is awesome|was great}',
    'great experience buying my $newmodel',
    'love my new $newmodel',
    'the $svcdept is top notch',
    'they always take care of me',
    'quick service',
  ],
  neg: [
    '{terrible|horrible} service',
    'avoid',
    'worst dealership {ever|around}',
    'took forever',
    'overpriced',
    '@rude staff',
    'never again',
    'do not waste your time',
    '{horrible|terrible} customer service',
    '$hours for $svc. @ridiculous',
    'no communication',
    'they never call back',
    '$svcdept is a joke',
    'worst $svcdept in the state',
  ],
  mid: [
    'ok',
    'it was fine',
    'decent service, a little slow',
    'average',
    'not bad',
    'service was ok but took too long',
    'good service, prices are high',
    'friendly but slow',
    'nothing special',
    'got the job done',
  ],
};

/** The paragraph an author adds when editing a review, by kind of edit. */
export const UPDATES: Readonly<Record<'raised' | 'lowered' | 'thanks', readonly string[]>> = {
  raised: [
    'UPDATE: {the service manager|the general manager|the manager} {called me|reached out} {after this review|the next day} and {made it right|refunded the fee|fixed it at no charge}. {Bumping|Changing} {it|my review} up{ a couple stars|}.',
    'Update: they {fixed|finally fixed} {it|the problem} {on the second visit|after I posted this} and {covered the cost|apologized}.$onlyService Changing my rating.',
    'UPDATE: {the general manager|the sales manager} {called me|reached out} and {took the add-ons off|got my plates sorted out|refunded the warranty I did not want}.$onlySale {Bumping|Changing} my rating.',
  ],
  lowered: [
    'UPDATE: {the problem came back|the noise is back|same issue again} {a week later|after two weeks}.$onlyService {Dropping|Lowering} my rating.',
    'UPDATE: {still no plates|still waiting on my title|the second key they promised never showed up} {a month later|six weeks later}.$onlySale {Dropping|Lowering} my rating.',
    'Edit: {still waiting on a call back|nobody has followed up} {two weeks later|a month later}. Lowering my stars.',
  ],
  thanks: [
    'Edit: forgot to mention $staff, {thank you|thanks again}!',
    'Edit: {also want to thank|shout out to} $staff{ for the follow up call|}!',
    'Edit: {also want to thank|forgot to thank} {the whole team|everyone there}!',
  ],
};
