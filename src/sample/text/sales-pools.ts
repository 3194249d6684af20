/**
 * English sentences about buying, leasing and financing a vehicle, by aspect and polarity. The
 * same template language as the service pools; `$sales`, `$fin` and `$mgr` are the people on the
 * deal, `$newcar` the vehicle bought and `$trade` the one traded in.
 */
export const SALES_POOLS: Readonly<Record<string, readonly string[]>> = {
  'staff.pos': [
    '$sales {was|is} {not pushy at all|patient with us|so easy to work with|@great}',
    '{our|my} {salesman|sales guy|sales consultant}, $sales, {made the whole process easy|did not waste our time|listened to what we wanted}',
    "$sales's {knowledge of the trucks|patience|honesty} {made all the difference|is why we bought here}",
    '$sales {showed me all the features|set up my phone with the $model|walked me through the whole touchscreen} before I left',
    'ask for $sales{, you will not regret it|!|}',
    '$sales {answered every text|stayed late|came in on $sales:his day off} to {get us done|finish the deal|make it work}',
    '$mgr {came over to shake our hand|stopped by to thank us|made sure everything was perfect}',
    '$sales treated {my wife|my mom|my daughter|us} with respect{, which is not always the case at dealerships|}',
    'everybody {we dealt with|we met} was @friendly{ and low key|}',
    '$bilingual {helped my parents in Spanish|explained everything to my mom in Spanish}, which {made them so comfortable|meant a lot to us}',
  ],
  'staff.neg': [
    '$sales {kept disappearing|kept going back to talk to $sales:his manager|kept trying to get me into something more expensive}',
    '{the salesman|our salesperson} {did not know anything about the $model|could not answer basic questions}',
    '$sales {stopped returning my texts|ghosted me} {once the deal was done|after I signed}',
    'the sales manager {was @rude|talked down to us|would not even come out to talk to us}',
    '{they|$sales} {ignored us|did not even acknowledge us} for {20|30} minutes {on the lot|in the showroom}',
  ],
  'sales-experience.pos': [
    '{no|zero} {pressure|haggling|games}',
    '$sales {found|tracked down} {exactly the $model we wanted|the $color one my wife wanted} {at another dealer|in transit}',
    '{easiest|best} car buying experience {I have ever had|ever|we have had}',
    '{I|we} did most of it online and {just came in to sign|were in and out in two hours}',
    '{they|$sales} had the $model {cleaned up|ready} {with a full tank|with a bow on it} when we picked it up',
    'they let us take the $model {home overnight|on a long test drive} {with no pressure|which sealed the deal}',
    'buying a $vehicle {here|from them} was {actually fun|painless|a pleasure}',
  ],
  'sales-experience.neg': [
    '{high|extreme} pressure {tactics|sales}',
    '{they|the sales manager} {would not|refused to} {give me an out the door price|put anything in writing}',
    'the {truck|car} {was sold|had been sold} {by the time I got there|an hour before I showed up} {after they told me it was there|even though I called ahead}',
    'the used {car|truck} {had|came with} {a warning light|a cracked windshield|bald tires|a rattle} {the day I bought it|two days later}',
    'classic {four square|bait and switch|good cop bad cop} {routine|nonsense}',
    'they {kept|} {ran my credit|pulled my credit} {before we even agreed on a price|three times}',
    'felt like {a hostage|I was being held hostage} {in that office|at the desk}',
  ],
  'sales-experience.neu': ['typical car buying experience, {nothing special|no better or worse than anywhere else}'],
  'price-value.pos': [
    '{got|they gave us} a {great|fair|good} {deal|price}{ on our new $model|}',
    '{they|$sales} {honored|matched} {the internet price|a quote from another dealer}',
    '{no|zero} {hidden fees|surprise add-ons}',
    'price was {exactly|right at} what {they quoted|was advertised online}',
    '{under|below} MSRP{, which is rare these days|}',
  ],
  'price-value.neg': [
    '{they|the dealership} added {$2,995|$1,895|$3,500} in {add-ons|dealer add-ons|"protection packages"} {that were not in the online price|nobody mentioned}',
    '{market adjustment|dealer markup} of {$5,000|$8,000} on top of MSRP',
    'the {advertised|online} price was {not|never} the real price',
    'the doc fee {is|was} {$799|outrageous}',
    'nitrogen filled tires and window etching for {$995|$1,200}? {Come on|Really|Please}',
  ],
  'price-value.neu': ['price was about what you would expect{ in this market|}'],
  'financing.pos': [
    '$fin {in finance|in the finance office|} {got us a better rate than our credit union|explained everything|had us out in 30 minutes|did not push any extras}',
    '{they|$fin} worked {hard |}with my {credit|not so great credit} and {got me approved|got me a payment I can afford}',
    '{finance|the paperwork} {was|went} {quick|smooth|painless}',
    '{rate|interest rate} was {great|better than expected|$rate}',
    '$fin {explained|went over} every {form|page} {and never rushed us|without the hard sell}',
  ],
  'financing.neg': [
    '{the finance guy|$fin|finance} {spent 45 minutes|kept} pushing {an extended warranty|gap insurance|tire and wheel protection|a prepaid service plan} {after I said no|I said no to three times}',
    '{they|finance} {marked up|jacked up} {my|the} rate to $rate {even though my credit is excellent|when my bank would have given me way less}',
    '{I|we} found {charges|products} {I|we} {never agreed to|said no to} on the contract',
    '{they|finance} {took|had us waiting} {three|four} hours {in the box|for finance}',
    '{a week later they called saying the|the} {financing fell through|bank did not approve it} and {wanted|tried to get} me to {come back and sign at a higher rate|sign a new contract}',
  ],
  'financing.neu': ['finance took a while but {it was fine|no complaints}'],
  'honesty-trust.pos': [
    '{they|$sales} {were upfront about everything|were honest about the history of the car|showed us the Carfax without asking}',
    '{for once|finally} a dealership that {does not play games|tells you the truth}',
    '{everything|every number} they told us {on the phone|by email} was {exactly|} what we saw on paper',
  ],
  'honesty-trust.neg': [
    '{bait and switch|classic bait and switch}',
    '{they|$sales} {lied|flat out lied} about {the price|the history of the car|the second key|what was included}',
    'the car {had|turned out to have} {been in an accident|flood damage|a salvage history} {they never mentioned|that was not disclosed}',
    '{shady|dishonest|sketchy} {dealership|business|practices}',
  ],
  'wait-time.pos': [
    '{in and out|done} in {two hours|under two hours}{ including financing|}',
    'the whole {process|deal} took {about |}{90 minutes|two hours}',
  ],
  'wait-time.neg': [
    'the whole process took {five|six|seven} hours',
    'waited {two hours|forever} {for finance|just to sign papers}',
    'we were there {all day|from noon until close|until 9:30 at night}',
  ],
  'follow-up.pos': [
    '$sales {checked in|texted} {a week later|after a few days} to see how {we liked|I liked} the $model',
    '{they|$sales} {helped|came out to help} me set up {the app|my phone} {a week later|after the sale}',
  ],
  'follow-up.neg': [
    'still {do not have|waiting on} my {plates|tags|title|second key} {a month later|six weeks later}',
    'temp tag {expired|is about to expire} and {@nobody|no one} {can tell me|knows} where my {plates|title} {are|is}',
    '{once|after} {I signed|they had my money} {@nobody|no one} {returns|returned} my calls',
    'they promised {a second key|to fix the scratch|floor mats} and {it never happened|I am still waiting}',
  ],
  'trade-in.pos': [
    'they gave me {a fair|a great|more than I expected for my} trade{-in| in}{ value| offer|}{ for $trade|}',
    '{they|$mgr} {matched|beat} {the Carvana offer|what CarMax offered} on {$trade|my trade}',
    '{got|they gave me} {top dollar|a good number} for $trade',
  ],
  'trade-in.neg': [
    '{lowballed|low balled} me on my trade{-in|}{ by $3,000| by thousands|}',
    'offered me {$4,000|$5,500} {less than|under} {KBB|what Carvana offered} for $trade',
    'the trade{-in|} number {changed|dropped} {once we sat down|after they ran my credit}',
  ],
};
