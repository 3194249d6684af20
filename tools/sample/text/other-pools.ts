/**
 * English sentences shared by every department (the building, the waiting room), the recurring
 * service themes (loaners, the shuttle, recalls), and the parts counter and collision centre.
 */
export const SHARED_POOLS: Readonly<Record<string, readonly string[]>> = {
  'facility-amenities.pos': [
    '{the waiting area|the lounge} {is|was} {clean|comfortable|nice}{ and the wifi actually works| with plenty of outlets|}',
    '{clean|spotless} {bathrooms|facility|showroom}',
    'nice {building|facility}{, easy to find|, plenty of parking|}',
  ],
  'facility-amenities.pos.renovated': [
    'the new {lounge|waiting room|customer lounge} is {really nice|beautiful|a big improvement}{ with a work area and a coffee bar|, feels like an airport lounge|}',
    'love the {remodeled|renovated} {lounge|waiting area}{, quiet room to work in|, comfy chairs|}',
    'since the remodel the waiting area is {so much nicer|actually pleasant}',
  ],
  'facility-amenities.neg': [
    'parking is a {nightmare|mess}',
    '{the lot is|the service drive was} {a mess|chaos}{ on a Saturday morning|}',
  ],
  'facility-amenities.neg.old': [
    '{the waiting room|the lobby} {is|was} {cramped|dated|small} and {the TV was blasting|there is nowhere to plug in a laptop|the chairs are uncomfortable}',
    '{the restroom|the bathroom} {was filthy|needs attention}',
    'the waiting room {needs a makeover|is stuck in the 90s}',
  ],
  'facility-amenities.neu': [
    'the waiting area is {fine|ok}{, nothing fancy|}',
    'typical dealership waiting room',
  ],
  'waiting-room.pos': [
    '{free|fresh} {coffee|popcorn|snacks|cookies} {in the lounge|while you wait}{ is a nice touch|}',
    'the {coffee|cappuccino machine} in the waiting room is {actually good|better than Starbucks}',
    '{good|fast} wifi and {free|fresh} coffee{, I got a lot of work done|}',
  ],
  'waiting-room.neg': [
    '{the coffee machine|the vending machine} {was broken|was out of order}{ again|}',
    '{no|not even} coffee{ or water|} in the waiting room',
    'the wifi in the waiting room {does not work|kept dropping}',
  ],
  'loaner.pos': [
    'they {gave me|set me up with} a loaner {so I could get to work|since it was going to be a couple days|, no questions asked}',
    'got a {brand new|2026} {Equinox|Malibu|Trax|Blazer} as a loaner',
    '{the|my} loaner {was ready when I got there|was clean and full of gas}',
  ],
  'loaner.neg': [
    '{no|they had no} loaners available {even though I was told there would be one|and no rental reimbursement}',
    'had to pay for my own rental while it sat there for $days',
    '{they|the advisor} {promised|said I would get} a loaner and {then|} {there were none|it was not there} when I showed up',
  ],
  'shuttle.pos': [
    'the shuttle {got me home|took me to work} {and picked me back up when it was ready|no problem}',
    '$driver {drove me home|gave me a ride} and {we talked the whole way|was a real pleasure}',
    'the shuttle {service|} {is|was} {a lifesaver|super convenient}',
  ],
  'shuttle.neg': [
    '{waited|stood outside for} {45 minutes|over an hour} for the shuttle',
    'the shuttle {only goes 5 miles out|does not go out to my area|does not go past $city}',
    '{nobody|no one} told me the shuttle {stops at 4|was not running} until I {asked|was ready to leave}',
  ],
  'recall.pos': [
    'the recall was {done|taken care of} {quickly|in under two hours}{ and at no cost|}',
    '{they|$adv} {noticed|caught} an open recall {I did not know about|on my $model} and {took care of it|did it while I was there}',
  ],
  'recall.neg': [
    'the {engine |}recall {parts were|part was} on backorder for $weeks',
    '{my|the} $model {sat|has been sitting} there for $weeks waiting on recall {parts|work}',
    '{they|nobody} {could|would} not tell me when the recall {part|parts} would come in',
  ],
};

/** English sentences for parts-counter visits and collision-centre repairs. */
export const PARTS_BODY_POOLS: Readonly<Record<string, readonly string[]>> = {
  'parts.staff.pos': [
    '$parts at the parts counter {knew exactly what I needed|found the right part in two minutes|was super helpful}',
    '$parts {looked up my VIN and|} {got me the right part|explained which part I needed}',
  ],
  'parts.staff.neg': [
    'the guy at the {parts counter|parts desk} {acted like I was bothering him|was @rude}',
    '{the parts department|parts} never answers the phone',
  ],
  'parts.wait-time.pos': ['{they|$parts} had {it|the part} {in stock|in two days|overnight}'],
  'parts.wait-time.neg': [
    '{ordered|paid for} a part {three|four} weeks ago and {it is still not here|nobody can tell me when it is coming}',
    'put on hold for {20|30} minutes {by|calling} the {parts department|parts desk}',
  ],
  'parts.price-value.pos': [
    '{the parts counter|$parts} {gave me|matched} {a fair price|the online price}{ on OEM parts|}',
  ],
  'parts.price-value.neg': [
    '{paid|charged} {$90|$140} for a {part|sensor} {I found|that is} {$35|$40} online',
    'parts prices are {high|steep}{ even for OEM parts|}',
  ],
  'parts.honesty-trust.neg': [
    '{they|the parts counter} ordered the wrong part {twice|again} and {blamed me|would not refund the shipping}',
  ],
  'body.staff.pos': [
    '$body {kept me updated|sent me pictures} {the whole time|every few days} and {worked with my insurance|handled everything}',
    '$body {walked me through the estimate|explained the insurance process} {and answered every question|without rushing me}',
  ],
  'body.staff.neg': [
    '{nobody|no one} at the {body shop|collision center} {returns calls|would give me an update}',
    '$body {never called me back|kept saying next week}',
  ],
  'body.quality-of-work.pos': [
    '{you cannot even tell|cannot tell} {it was ever damaged|where the damage was}',
    '{paint|color} match is {perfect|spot on}',
    '{it looks|my $vehicle looks} {brand new|better than before the accident}',
  ],
  'body.quality-of-work.neg': [
    '{the paint|the color} {does not match|is off} {on the new panel|in the sunlight}',
    'the {gap on the door|panel gap} is {off|uneven} and {there is overspray on the trim|the trim is loose}',
  ],
  'body.wait-time.neg': [
    '{they|the body shop} {had my car|kept it} for {five weeks|over a month|seven weeks} {and the rental coverage ran out|for what was supposed to take a week}',
  ],
  'body.wait-time.pos': ['{done|finished} {a day early|on time|ahead of schedule}'],
  'body.price-value.pos': [
    '{they|$body} worked directly with {my insurance|State Farm|Geico|Progressive} so I only paid my deductible',
  ],
  'body.price-value.neg': [
    '{the estimate|their estimate} was {way|$2,000} higher than {the independent body shop|two other shops}',
  ],
  'body.vehicle-cleanliness.pos': [
    '{they|the shop} {washed|cleaned} {it|the whole car} {inside and out|} before I picked it up',
  ],
};
