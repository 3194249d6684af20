/**
 * Owner responses, assembled from parts so the store's replies vary the way a busy manager's do:
 * a greeting, a thank-you or an apology, something specific to the visit, an invitation or a
 * phone number, and a signature. `$first` is the reviewer's first name, `$staff` a colleague
 * named in the review, `$phone` the right department's number.
 */
export const RESPONSE_EN = {
  greet: [
    'Hi $first,',
    '$first,',
    'Hello $first,',
    'Hi $first!',
    'Dear $first,',
    'Hey $first!',
    '',
  ],
  greetAnon: ['Hello,', 'Hi there,', 'Hi,', ''],
  thanks: [
    'Thank you for taking the time to share your experience!',
    'We really appreciate the {$stars|great|kind} review.',
    'Thanks so much for the kind words!',
    'What a great review to read this morning!',
    'Thank you for choosing {Stonebridge|Stonebridge Chevrolet Buick GMC|us}.',
    'We are so glad to hear you had a {great|positive|smooth} visit.',
    'Thank you for the feedback and for trusting us with your $model.',
  ],
  thanksMid: [
    'Thank you for the honest feedback.',
    'We appreciate you letting us know how your visit went.',
    'Thanks for taking the time to write this.',
  ],
  apology: [
    'We are sorry to hear about your experience.',
    'This is not the level of service we expect from our {team|staff|service department}.',
    'I apologize for the {long wait|lack of communication|frustration} on your visit.',
    'I am sorry we let you down.',
    'Thank you for bringing this to our attention, and I apologize.',
    'I am disappointed to read this, and I apologize on behalf of our whole team.',
  ],
  specificPos: [
    'We will make sure $staff sees this.',
    '$staff will be thrilled to hear this!',
    'I have shared your kind words with $staff and the rest of the team.',
    'We are glad your $model is running great.',
    'It sounds like $staff took great care of you.',
  ],
  specificSales: [
    'Enjoy your new $model!',
    'Congratulations on your new $model!',
    'Congrats on the new ride, and enjoy every mile!',
  ],
  shortStaffed: [
    'We have had some changes on our technician team recently and are actively hiring. That is not an excuse, and we are working hard to bring wait times back down.',
    'Our shop has been short on technicians since the summer, and we know it has meant longer waits. We are hiring and adding appointment capacity as fast as we can.',
  ],
  onlineBooking: [
    'We are glad the new online scheduling worked well for you!',
    'Thanks for trying our new online booking.',
  ],
  contact: [
    'I would like to speak with you personally. Please call me at $phone.',
    'Please reach out to me directly at $phone so I can look into this.',
    'Please give me a call at $phone, or email us at care@stonebridge-gm.example.com, and we will make this right.',
    'I have shared your feedback with our {service team|managers}, and I would appreciate the chance to talk with you at $phone.',
    'We would like the opportunity to make this right. Please ask for me when you call $phone.',
  ],
  invite: [
    'We look forward to seeing you at your next visit.',
    'See you next time!',
    'Do not hesitate to reach out if you need anything.',
    'We appreciate your business!',
    'Have a great {day|week}!',
    '',
  ],
  inviteMid: [
    'We hope to earn a five-star visit next time.',
    'If there is anything we can do better, please call me at $phone.',
  ],
  ratingOnlyPos: [
    'Thank you for the {5-star|five-star} rating{, $first|}!',
    'Thanks for the {stars|great rating}{, $first|}! We appreciate your business.',
    'We appreciate the rating{, $first|}. See you next time!',
    'Thank you{, $first|}!',
    'Thank you for the {5-star|five-star} rating!',
    'Thanks for the {stars|great rating}! We appreciate your business.',
  ],
  ratingOnlyNeg: [
    'We are sorry your visit did not meet your expectations. Please call us at $phone so we can make this right.',
    'We would like to know more about your experience. Please reach out to us at $phone.',
  ],
} as const;

/** Spanish reply parts, for Spanish reviews. */
export const RESPONSE_ES = {
  greet: ['Hola $first,', '¡Hola $first!', 'Estimado/a $first,', ''],
  thanks: [
    '¡Muchas gracias por su reseña!',
    'Gracias por tomarse el tiempo de compartir su experiencia.',
    'Nos alegra mucho saber que tuvo una buena experiencia.',
  ],
  specificPos: ['Le pasaremos sus comentarios a $staff.', '¡$staff estará feliz de leer esto!'],
  apology: [
    'Lamentamos mucho su experiencia.',
    'Le pedimos una disculpa por la espera y la falta de comunicación.',
  ],
  contact: [
    'Por favor llámeme al $phone para resolver esto.',
    'Nos gustaría hablar con usted. Puede llamarnos al $phone.',
  ],
  invite: ['¡Lo esperamos pronto!', 'Gracias por su preferencia.', ''],
} as const;

/** DealerRater review titles by department group and tone. */
export const TITLES = {
  servicePos: [
    'Great service',
    'Great service as always',
    'Quick $svcb',
    'Always a great experience',
    '$staff is the best',
    'Excellent service department',
    'Fast and friendly',
    'In and out',
    'Service visit',
    '$svcb',
    'Highly recommend',
    'Thank you $staff!',
    'Best service department around',
    'Another great visit',
    'Professional and honest',
    '5 stars',
  ],
  salesPos: [
    'Love my new $model!',
    'Great buying experience',
    'Easy purchase',
    'Best dealership',
    '$staff made it easy',
    'Second car from Stonebridge',
    'Smooth and easy',
    'Great experience',
    'New truck!',
    'Very happy customer',
    'Ask for $staff',
    'No pressure, great deal',
  ],
  neg: [
    'Disappointed',
    'Poor communication',
    'Long wait',
    'Not happy',
    'Terrible experience',
    'Do not buy here',
    'Overcharged',
    'Never again',
    'Very frustrating',
    'Unprofessional',
    'Buyer beware',
    'Horrible service department',
    'Still waiting',
  ],
  mid: [
    'Ok experience',
    'Good but slow',
    'Mixed feelings',
    'Could be better',
    'Decent',
    'Room for improvement',
    'Average',
  ],
  esPos: [
    'Excelente servicio',
    'Muy buena atención',
    'Recomendado',
    'Muy contentos',
    'Todo excelente',
    'Gracias $staff',
  ],
  esNeg: ['Mala experiencia', 'Servicio lento', 'No lo recomiendo', 'Muy mal servicio'],
} as const;
